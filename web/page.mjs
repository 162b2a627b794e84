// Drives the interactive page (web/www, built by web/build) in the system Chromium for
// tests/web: `node web/page.mjs REQUEST.json RESULT.json`. It loads the page, records
// what it shows first, then applies each step's actions as a user would (choosing in a
// select, typing into an input or the graph box, clicking a box or button, letting the
// animation run for a while) and records what the page shows after
// it settles: the canvas's pixels, the settings the page reports, the error lines, the
// pictures shown and changes refused. All judging is the Rust test's.
//
// REQUEST: { chromium, site, screenshot, downloads,
//            steps: [{ name, actions: [{ select: ID, value } | { type: ID, text } |
//                                      { append: ID, text } | { click: ID, download? } |
//                                      { wait: MILLISECONDS }] }] }
// Files the page saves land in `downloads`. Then the page is opened once more in a
// browser without WebGPU (`navigator.gpu` removed before the page's script runs), and what
// it says is `no_webgpu`.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newResult, open, serve } from "./browser.mjs";

const [requestPath, resultPath] = process.argv.slice(2);
const request = JSON.parse(readFileSync(requestPath, "utf8"));
const { server, url } = await serve(request.site);
const result = newResult({ url, steps: [] });
let browser;

// Resolves when `path` exists (Chromium renames a finished download to its name).
async function downloaded(path) {
  for (let i = 0; i < 100 && !existsSync(path); i++) await new Promise((r) => setTimeout(r, 100));
}

// What the page shows now, once its queued changes have been drawn.
async function state(page, name) {
  return page.evaluate(async (name) => {
    const p = window.wgpuNoise;
    await p.settled();
    const canvas = document.getElementById("noise");
    const rgba = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    return {
      name,
      width: canvas.width,
      height: canvas.height,
      rgba: Array.from(rgba),
      settings: p.settings,
      error: document.getElementById("error").textContent,
      graph_error: document.getElementById("graph-error").textContent,
      frames: p.frames,
      rejected: p.rejected,
    };
  }, name);
}

try {
  let page;
  ({ browser, page } = await open(request.chromium, url, result));
  const cdp = await page.createCDPSession();
  await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: request.downloads });
  await page.waitForFunction(() => window.wgpuNoise && (window.wgpuNoise.ready || window.wgpuNoise.failed),
    { timeout: 120_000 });
  Object.assign(result, await page.evaluate(() => ({ ready: wgpuNoise.ready, failed: wgpuNoise.failed,
    status: document.getElementById("status").textContent })));
  if (result.ready) {
    result.steps.push(await state(page, "first picture"));
    for (const step of request.steps) {
      for (const action of step.actions) {
        if (action.wait !== undefined) {
          await new Promise((r) => setTimeout(r, action.wait));
        } else if (action.select !== undefined) {
          await page.select(`#${action.select}`, action.value);
        } else if (action.click !== undefined) {
          await page.click(`#${action.click}`);
          if (action.download) await downloaded(join(request.downloads, action.download));
        } else if (action.append !== undefined) {
          // Type at the end of what the field holds.
          await page.click(`#${action.append}`);
          await page.keyboard.down("Control");
          await page.keyboard.press("End");
          await page.keyboard.up("Control");
          await page.type(`#${action.append}`, action.text);
        } else {
          // Select what the field holds, then type over it key by key.
          await page.click(`#${action.type}`);
          await page.keyboard.down("Control");
          await page.keyboard.press("KeyA");
          await page.keyboard.up("Control");
          await page.keyboard.press("Backspace");
          await page.type(`#${action.type}`, action.text);
        }
      }
      result.steps.push(await state(page, step.name));
    }
    if (request.screenshot) {
      await page.screenshot({ path: request.screenshot, fullPage: true });
    }
  }
  const bare = await browser.newPage();
  await bare.evaluateOnNewDocument(() => { delete Navigator.prototype.gpu; });
  await bare.goto(url, { waitUntil: "load" });
  await bare.waitForFunction(() => window.wgpuNoise && (window.wgpuNoise.ready || window.wgpuNoise.failed),
    { timeout: 60_000 });
  result.no_webgpu = await bare.evaluate(() => ({ ready: wgpuNoise.ready,
    error: document.getElementById("error").textContent }));
} catch (e) {
  result.driver_error = String(e.stack ?? e);
} finally {
  await browser?.close();
  server.close();
}
writeFileSync(resultPath, JSON.stringify(result));
