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
import { join } from "node:path";
import { newResult, open, serve } from "./browser.mjs";

const [requestPath, resultPath] = process.argv.slice(2);
const request = JSON.parse(readFileSync(requestPath, "utf8"));
const { server, url } = await serve(request.site);
const result = newResult({ url, compute: {}, draw: {} });
let browser;
try {
  let page;
  ({ browser, page } = await open(request.chromium, url, result));
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
  await browser?.close();
  server.close();
}
writeFileSync(resultPath, JSON.stringify(result));
