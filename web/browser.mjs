// What web/check.mjs and web/page.mjs share: a static file server for one directory
// (node's http module) and the system Chromium, headless, WebGPU on SwiftShader, with
// the page's console, exceptions and failed requests recorded into `result`.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import puppeteer from "puppeteer-core";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };

// A result with the lists `open` fills, and `fields`.
export const newResult = (fields) => ({ console: [], page_errors: [], failed_requests: [], ...fields });

// Serves `site` on a free port of 127.0.0.1; resolves to { server, url }.
export async function serve(site) {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    const file = join(site, path.endsWith("/") ? path + "index.html" : path);
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
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

// Opens `url` in `chromium`; the page's console, exceptions and failed requests go to
// `result` (made with `newResult`).
export async function open(chromium, url, result) {
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: [
      "--headless=new",
      "--no-sandbox",
      "--enable-unsafe-webgpu",
      "--use-webgpu-adapter=swiftshader",
      // WebGL (the editor page's UI) on SwiftShader through ANGLE, asked for: Chromium's
      // automatic fallback to it warns that it is deprecated, and on its default GL path
      // every frame warns "GPU stall due to ReadPixels".
      "--enable-unsafe-swiftshader",
      "--use-angle=swiftshader",
      // Screenshots keep the page's bytes (no display colour profile in between).
      "--force-color-profile=srgb",
    ],
    defaultViewport: { width: 1000, height: 700, deviceScaleFactor: 1 },
  });
  const page = await browser.newPage();
  page.on("console", (m) => result.console.push({ type: m.type(), text: m.text() }));
  page.on("pageerror", (e) => result.page_errors.push(String(e)));
  page.on("requestfailed", (r) => result.failed_requests.push(`${r.url()}: ${r.failure()?.errorText}`));
  page.on("response", (r) => { if (r.status() >= 400) result.failed_requests.push(`${r.url()}: HTTP ${r.status()}`); });
  await page.goto(url, { waitUntil: "load" });
  return { browser, page };
}
