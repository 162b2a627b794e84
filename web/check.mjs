// Runs WGSL from tests/web on the system Chromium's own WebGPU (web/check/index.html):
// `node web/check.mjs REQUEST.json RESULT.json`. It serves web/check itself (node's http
// module: static files only), opens it headless with WebGPU on SwiftShader, runs the
// request's compute jobs (their values come back) and draw jobs (a screenshot of the
// canvas each), and records the console. All judging is the Rust test's.
//
// REQUEST: { chromium, site, out_dir, page_screenshot,
//            compute: [{ name, wgsl, constants, group, textures, points, per_point }],
//            draw: [{ name, wgsl, constants, group, textures, uniform }] }
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import puppeteer from "puppeteer-core";

const [requestPath, resultPath] = process.argv.slice(2);
const request = JSON.parse(readFileSync(requestPath, "utf8"));
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };

const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
  const file = join(request.site, path.endsWith("/") ? path + "index.html" : path);
  try {
    const body = readFileSync(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

const result = { url, console: [], page_errors: [], failed_requests: [], compute: {}, draw: {} };
const browser = await puppeteer.launch({
  executablePath: request.chromium,
  headless: true,
  args: [
    "--headless=new",
    "--no-sandbox",
    "--enable-unsafe-webgpu",
    "--use-webgpu-adapter=swiftshader",
    // Screenshots keep the page's bytes (no display colour profile in between).
    "--force-color-profile=srgb",
  ],
  defaultViewport: { width: 1000, height: 700, deviceScaleFactor: 1 },
});
try {
  const page = await browser.newPage();
  page.on("console", (m) => result.console.push({ type: m.type(), text: m.text() }));
  page.on("pageerror", (e) => result.page_errors.push(String(e)));
  page.on("requestfailed", (r) => result.failed_requests.push(`${r.url()}: ${r.failure()?.errorText}`));
  page.on("response", (r) => { if (r.status() >= 400) result.failed_requests.push(`${r.url()}: HTTP ${r.status()}`); });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForFunction(() => window.noiseCheck && (window.noiseCheck.ready || window.noiseCheck.failed),
    { timeout: 120_000 });
  Object.assign(result, await page.evaluate(() => ({ ready: noiseCheck.ready, failed: noiseCheck.failed,
    adapter: noiseCheck.adapter, status: document.getElementById("status").textContent })));
  if (result.ready) {
    for (const job of request.compute) {
      result.compute[job.name] = await page.evaluate((job) => noiseCheck.compute(job), job);
    }
    const clip = await page.evaluate(() => {
      const r = document.getElementById("noise").getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    });
    for (const [i, job] of request.draw.entries()) {
      await page.evaluate((job) => noiseCheck.draw(job), job);
      // Two animation frames: the frame has been presented before the screenshot.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const png = join(request.out_dir, `draw-${i}.png`);
      await page.screenshot({ path: png, clip });
      result.draw[job.name] = png;
    }
    if (request.page_screenshot) {
      // The canvas (the last picture drawn) and the status line under it.
      await page.screenshot({ path: request.page_screenshot, clip: { x: 0, y: 0, width: 280, height: 310 } });
    }
  }
} catch (e) {
  result.driver_error = String(e.stack ?? e);
} finally {
  await browser.close();
  server.close();
}
writeFileSync(resultPath, JSON.stringify(result));
