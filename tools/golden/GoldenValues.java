/*
 * GoldenValues.java -- writes the golden reference files for wgpu-noise by
 * running Stefan Gustavson's published Java code ("Simplex noise demystified",
 * 2005-03-22; see ClassicNoise.java / SimplexNoise.java in this directory for
 * the source and the list of modifications, notably fastfloor -> Math.floor).
 *
 * Usage (from the repository root, see tools/golden/README.md):
 *   javac -d /tmp/golden-classes tools/golden/*.java
 *   java -cp /tmp/golden-classes GoldenValues tests/golden
 *
 * Output: classic3.txt, simplex2.txt, simplex3.txt, simplex4.txt in the given
 * directory. Lines starting with '#' are comments. Every other line is
 *   c_1 ... c_N value
 * (N input coordinates, then the noise value), separated by single spaces,
 * each number printed with Java's Double.toString(double), which round-trips
 * exactly to the same IEEE-754 binary64 value (checked here for every number).
 *
 * Points are deterministic: each file uses a fresh java.util.Random(SEED).
 */
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class GoldenValues {

    static final long SEED = 20050322L;

    interface Noise { double eval(double[] p); }

    /** A group of points with a comment line naming it. */
    static final class Section {
        final String name;
        final List<double[]> pts = new ArrayList<>();
        Section(String name) { this.name = name; }
    }

    static final double F2 = 0.5 * (Math.sqrt(3.0) - 1.0);
    static final double G2 = (3.0 - Math.sqrt(3.0)) / 6.0;
    static final double G3 = 1.0 / 6.0;
    static final double G4 = (5.0 - Math.sqrt(5.0)) / 20.0;

    static final int[] SPECIAL_INTS = {0, 1, -1, 255, 256, -256, 257, -257, 511, 512, -255, 300, -300};

    static double uniform(Random r, double lo, double hi) { return lo + (hi - lo) * r.nextDouble(); }

    static int randInt(Random r, int lo, int hi) { return lo + r.nextInt(hi - lo + 1); }

    /** Unskew factor for simplex dimension n (skewed -> input space). */
    static double unskew(int n) { return n == 2 ? G2 : n == 3 ? G3 : G4; }

    static List<Section> points(int n, boolean simplex) {
        Random r = new Random(SEED);
        List<Section> out = new ArrayList<>();

        Section s = new Section("fixed hand-picked points (incl. -0.0)");
        double[] base = {0.5, 0.25, 0.125, 0.0625};
        double[] misc = {3.7, -1.2, 0.3, 5.1};
        s.pts.add(java.util.Arrays.copyOf(base, n));
        s.pts.add(java.util.Arrays.copyOf(misc, n));
        s.pts.add(new double[n]);
        double[] half = new double[n], mhalf = new double[n], onehalf = new double[n], negz = new double[n];
        for (int d = 0; d < n; d++) { half[d] = 0.5; mhalf[d] = -0.5; onehalf[d] = 1.5; negz[d] = (d == 0) ? -0.0 : 0.5; }
        s.pts.add(half); s.pts.add(mhalf); s.pts.add(onehalf); s.pts.add(negz);
        out.add(s);

        s = new Section("uniform random in [-1000,1000]^" + n);
        for (int k = 0; k < 320; k++) { double[] p = new double[n]; for (int d = 0; d < n; d++) p[d] = uniform(r, -1000, 1000); s.pts.add(p); }
        out.add(s);

        s = new Section("uniform random in [-1,1]^" + n);
        for (int k = 0; k < 50; k++) { double[] p = new double[n]; for (int d = 0; d < n; d++) p[d] = uniform(r, -1, 1); s.pts.add(p); }
        out.add(s);

        s = new Section("uniform random in [250,262]^" + n + " (crosses the 256 period)");
        for (int k = 0; k < 50; k++) { double[] p = new double[n]; for (int d = 0; d < n; d++) p[d] = uniform(r, 250, 262); s.pts.add(p); }
        out.add(s);

        s = new Section("integer lattice points, random integers in [-300,300]");
        for (int k = 0; k < 40; k++) { double[] p = new double[n]; for (int d = 0; d < n; d++) p[d] = randInt(r, -300, 300); s.pts.add(p); }
        out.add(s);

        s = new Section("integer lattice points from {0,+-1,+-255,+-256,+-257,511,512,+-300}");
        for (int v : SPECIAL_INTS) { double[] p = new double[n]; for (int d = 0; d < n; d++) p[d] = v; s.pts.add(p); }
        for (int k = 0; k < 20; k++) { double[] p = new double[n]; for (int d = 0; d < n; d++) p[d] = SPECIAL_INTS[r.nextInt(SPECIAL_INTS.length)]; s.pts.add(p); }
        out.add(s);

        s = new Section("cell boundaries: some coordinates exactly integer, others fractional");
        for (int k = 0; k < 30; k++) {
            double[] p = new double[n];
            int intDim = r.nextInt(n), fracDim = (intDim + 1 + r.nextInt(n - 1)) % n; // at least one of each
            for (int d = 0; d < n; d++) {
                boolean isInt = d == intDim || (d != fracDim && r.nextBoolean());
                p[d] = isInt ? (r.nextBoolean() ? randInt(r, -300, 300) : SPECIAL_INTS[r.nextInt(SPECIAL_INTS.length)])
                             : uniform(r, -300, 300);
            }
            s.pts.add(p);
        }
        out.add(s);

        s = new Section("coordinates within +-1e-9 of integers (some exactly integer)");
        for (int k = 0; k < 30; k++) {
            double[] p = new double[n];
            for (int d = 0; d < n; d++) {
                int m = r.nextBoolean() ? randInt(r, -300, 300) : SPECIAL_INTS[r.nextInt(SPECIAL_INTS.length)];
                int which = r.nextInt(5); // 0,1: -1e-9, 2,3: +1e-9, 4: exact
                p[d] = which < 2 ? m - 1e-9 : which < 4 ? m + 1e-9 : m;
            }
            s.pts.add(p);
        }
        out.add(s);

        s = new Section("far away: |coordinate| in [1e4,1e6], both signs");
        for (int k = 0; k < 20; k++) {
            double[] p = new double[n];
            for (int d = 0; d < n; d++) { double mag = Math.pow(10.0, uniform(r, 4, 6)); p[d] = r.nextBoolean() ? mag : -mag; }
            s.pts.add(p);
        }
        out.add(s);

        s = new Section("ties: two (or more) coordinates exactly equal (x0==y0 etc. inside the noise)");
        for (int k = 0; k < 24; k++) {
            double[] p = new double[n];
            for (int d = 0; d < n; d++) p[d] = uniform(r, -50, 50);
            if (k < 4) { for (int d = 1; d < n; d++) p[d] = p[0]; } // all equal
            else if (k < 8 && n >= 4) { p[1] = p[0]; p[3] = p[2]; } // two pairs
            else if (k < 8 && n == 3) { p[2] = p[1]; }
            else { int a = r.nextInt(n), b = (a + 1 + r.nextInt(n - 1)) % n; p[b] = p[a]; }
            s.pts.add(p);
        }
        out.add(s);

        if (simplex) {
            double g = unskew(n);
            s = new Section("skewed-cell boundaries: built in skewed space (u) and unskewed by x_d = u_d - sum(u)*G");
            for (int k = 0; k < 24; k++) {
                double[] u = new double[n];
                for (int d = 0; d < n; d++) u[d] = uniform(r, -100, 100);
                if (k < 6) {                       // simplex vertices: all skewed coords integer
                    for (int d = 0; d < n; d++) u[d] = randInt(r, -300, 300);
                } else if (k < 16) {               // on a cell face: some skewed coords integer
                    u[r.nextInt(n)] = randInt(r, -300, 300);
                    for (int d = 0; d < n; d++) if (r.nextInt(3) == 0) u[d] = randInt(r, -300, 300);
                } else {                           // on an inner simplex boundary: equal fractional parts
                    double f = r.nextDouble();
                    int a = r.nextInt(n), b = (a + 1 + r.nextInt(n - 1)) % n;
                    u[a] = randInt(r, -300, 300) + f;
                    u[b] = randInt(r, -300, 300) + f;
                }
                double sum = 0; for (double v : u) sum += v;
                double[] p = new double[n];
                for (int d = 0; d < n; d++) p[d] = u[d] - sum * g;
                s.pts.add(p);
            }
            out.add(s);
        }
        return out;
    }

    static String fmt(double v) {
        String str = Double.toString(v);
        if (Double.doubleToRawLongBits(Double.parseDouble(str)) != Double.doubleToRawLongBits(v))
            throw new IllegalStateException("does not round-trip: " + str);
        return str;
    }

    static boolean allInteger(double[] p) {
        for (double v : p) if (v != Math.floor(v)) return false;
        return true;
    }

    static void write(Path file, String what, int n, boolean simplex, Noise f) throws IOException {
        List<Section> secs = points(n, simplex);
        String coordNames = n == 2 ? "x y" : n == 3 ? "x y z" : "x y z w";
        int count = 0;
        double min = Double.POSITIVE_INFINITY, max = Double.NEGATIVE_INFINITY, maxLattice = 0;
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            w.print("# " + what + "\n");
            w.print("# Generated by RUNNING Stefan Gustavson's published Java code (\"Simplex noise demystified\", 2005-03-22),\n");
            w.print("#   reassembled in tools/golden/{ClassicNoise,SimplexNoise}.java; written by tools/golden/GoldenValues.java\n");
            w.print("#   (regenerate: see tools/golden/README.md).\n");
            w.print("# MODIFIED: fastfloor(x) = x>0 ? (int)x : (int)x-1 was replaced by (int)Math.floor(x) (published version is wrong at negative integers).\n");
            w.print("#   Other fixes (listing typos only): see the header comments of the .java files.\n");
            w.print("# Date generated: " + LocalDate.now(ZoneOffset.UTC) + " (UTC)\n");
            w.print("# Points: java.util.Random(seed=" + SEED + "), sections below are generated in order from one Random instance.\n");
            w.print("# Line format: " + coordNames + " value   (single spaces; every number is Java Double.toString(double) of an IEEE-754 binary64,\n");
            w.print("#   which round-trips exactly; may use an exponent like 1.0E-9 or -1.2345E5, and may be -0.0).\n");
            w.print("# Lines starting with '#' are comments (including the section markers).\n");
            for (Section sec : secs) {
                w.print("# section: " + sec.name + " (" + sec.pts.size() + " points)\n");
                for (double[] p : sec.pts) {
                    double v = f.eval(p);
                    if (Double.isNaN(v) || Double.isInfinite(v)) throw new IllegalStateException("non-finite value");
                    StringBuilder sb = new StringBuilder();
                    for (double c : p) sb.append(fmt(c)).append(' ');
                    sb.append(fmt(v));
                    w.print(sb.append('\n'));
                    count++;
                    min = Math.min(min, v); max = Math.max(max, v);
                    if (allInteger(p)) maxLattice = Math.max(maxLattice, Math.abs(v));
                }
            }
        }
        System.out.printf("%s: %d points, min %s, max %s, max |value| at integer lattice points %s%n",
                file, count, fmt(min), fmt(max), fmt(maxLattice));
        if (count < 500) throw new IllegalStateException("too few points");
        if (simplex && (min < -1.0 || max > 1.0)) throw new IllegalStateException("simplex value outside [-1,1]");
        if (!simplex && maxLattice > 1e-15) throw new IllegalStateException("classic noise not zero at lattice points");
    }

    public static void main(String[] args) throws IOException {
        Path dir = Paths.get(args.length > 0 ? args[0] : "tests/golden");
        Files.createDirectories(dir);
        write(dir.resolve("classic3.txt"), "ClassicNoise.noise(x, y, z): Gustavson's classic Perlin noise, 3D", 3, false,
              p -> ClassicNoise.noise(p[0], p[1], p[2]));
        write(dir.resolve("simplex2.txt"), "SimplexNoise.noise(x, y): Gustavson's simplex noise, 2D", 2, true,
              p -> SimplexNoise.noise(p[0], p[1]));
        write(dir.resolve("simplex3.txt"), "SimplexNoise.noise(x, y, z): Gustavson's simplex noise, 3D", 3, true,
              p -> SimplexNoise.noise(p[0], p[1], p[2]));
        write(dir.resolve("simplex4.txt"), "SimplexNoise.noise(x, y, z, w): Gustavson's simplex noise, 4D", 4, true,
              p -> SimplexNoise.noise(p[0], p[1], p[2], p[3]));
        System.out.println("simplex2(0.5, 0.25) = " + String.format(java.util.Locale.ROOT, "%.17g", SimplexNoise.noise(0.5, 0.25))
                           + "  (Double.toString: " + fmt(SimplexNoise.noise(0.5, 0.25)) + ")");
    }
}
