// Drives the editor page (web/www, built by web/build) in the system Chromium for
// tests/web/page.rs: `node web/page.mjs REQUEST.json RESULT.json`. It loads the page,
// records what it shows first, then applies each step's actions as a person would (mouse
// clicks, right-clicks and drags on the egui canvas at the widgets' places the page
// reports, typing, pasting) and records what the page shows once it has settled: its state
// (the view drawn, the editor's text, error and node at fault), the picture's RGBA bytes
// and each node's thumbnail's, the page's address. Then it opens share links in fresh
// pages (a step's address, or a fragment the test made) and records the same there, with
// a screenshot if asked, and opens the page once more without WebGPU. All judging is the Rust test's.
//
// REQUEST: { chromium, site, screenshot, screenshot_step, downloads,
//            steps: [{ name, actions: [{ click: NAME } | { right_click: NAME, at: [FX, FY] } |
//                                      { drag: [FROM, TO | [DX, DY]] } | { type: TEXT } |
//                                      { wheel: NAME, delta: DY } |
//                                      { until: NAME } | { download: FILE } |
//                                      { hover: NAME, at?: [FX, FY] } |
//                                      { fragment: SHARE } | { press: KEYS } |
//                                      { clipboard: TEXT } |
//                                      { frames: N } | { now: true } | { wait: MS } |
//                                      { capture: NAME, file: FILE }] }],
//            reopen: [{ name, step: STEP | fragment: SHARE, query?: QUERY, screenshot?: PATH,
//                       actions?: [ACTION | { settle: true }] }] }
// SCREENSHOT is taken after the step SCREENSHOT_STEP (after the last without one).
// NAME: a widget the page names (`wgpuNoise.layout()`); FX, FY: where in it, as fractions.
// `fragment` sets the address's fragment in the open tab (a link opened there); KEYS: a key
// with modifiers held, as puppeteer names them ("Control+A"). `clipboard` puts TEXT on the
// clipboard, as copying it in another program would (a `press` of "Control+V" then pastes
// it). `frames` records the next N pictures as they are shown, without waiting for the page
// to settle (while its clock runs it never does), into the step's `frames`:
// [{ state, rgba }]; `now` records the page as it is at once (its picture maybe not new)
// the same way; `wait` sleeps MS ms; `capture` saves the widget's pixels as the screen shows
// them (a screenshot of its place) to FILE in the downloads folder.
// QUERY: the reopened address's query (without its `?`), as `clock=gpu`.
// RESULT.reopened: { NAME: { start, state, after? } }: `after` once the actions are done
// (`settle` waits until the page draws nothing more).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newResult, open, serve } from "./browser.mjs";

const [requestPath, resultPath] = process.argv.slice(2);
const request = JSON.parse(readFileSync(requestPath, "utf8"));
const { server, url } = await serve(request.site);
const result = newResult({ url, steps: [] });
const VIEWPORT = { width: 1280, height: 800, deviceScaleFactor: 1 };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let browser;
// The step or link under way, for a driver error's message.
let doing = "start";

// Waits until the page has started (or failed).
async function started(page) {
  await page.waitForFunction(() => window.wgpuNoise && (wgpuNoise.started || wgpuNoise.failed),
    { timeout: 120_000 });
  return page.evaluate(() => ({ started: wgpuNoise.started, failed: wgpuNoise.failed,
    error: document.getElementById("error").textContent }));
}

// Waits until the page shows at least one picture and draws nothing more.
async function settled(page) {
  // A frame for the input to reach egui, and for a draw it asks for to start.
  await sleep(150);
  await page.waitForFunction(() => { const s = wgpuNoise.state(); return s.frames > 0 && !s.busy; },
    { timeout: 120_000, polling: 50 });
  await sleep(100);
}

// What the page shows now; each node's thumbnail as hex RGBA.
async function state(page, name) {
  await settled(page);
  return page.evaluate((name) => {
    const state = wgpuNoise.state();
    const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return {
      name,
      state,
      rgba: Array.from(wgpuNoise.picture()),
      thumbnails: Object.fromEntries(Object.keys(state.thumbnails ?? {})
        .map((node) => [node, hex(wgpuNoise.thumbnail(node))])),
      href: location.href,
      widgets: Object.keys(wgpuNoise.layout()),
    };
  }, name);
}

// The page coordinates of the point (fx, fy) of the widget `name`, once it is shown.
async function at(page, name, [fx, fy] = [0.5, 0.5]) {
  const handle = await page.waitForFunction((name) => {
    const r = wgpuNoise.layout()[name];
    if (!r) return null;
    const c = document.getElementById("app").getBoundingClientRect();
    return [c.left + r[0], c.top + r[1], c.left + r[2], c.top + r[3]];
  }, { timeout: 30_000, polling: 50 }, name);
  const [l, t, r, b] = await handle.jsonValue();
  return [l + (r - l) * fx, t + (b - t) * fy];
}

// Resolves when `path` exists (Chromium renames a finished download to its name).
async function downloaded(path) {
  for (let i = 0; i < 100 && !existsSync(path); i++) await sleep(100);
}

// Records the clipboard's text and takes the screenshot.
async function clipboardAndScreenshot(page) {
  result.clipboard = await page.evaluate(() => navigator.clipboard.readText().catch((e) => `failed: ${e}`));
  if (request.screenshot) await page.screenshot({ path: request.screenshot });
}

// The next `count` pictures the page shows, each as soon as it is shown.
async function nextFrames(page, count) {
  const frames = [];
  for (let i = 0; i < count; i++) {
    const shown = await page.evaluate(() => wgpuNoise.state().frames);
    await page.waitForFunction((shown) => wgpuNoise.state().frames > shown,
      { timeout: 120_000, polling: 10 }, shown);
    frames.push(await now(page));
  }
  return frames;
}

// The page's state and picture as they are.
async function now(page) {
  return page.evaluate(() => ({
    state: wgpuNoise.state(),
    rgba: Array.from(wgpuNoise.picture()),
  }));
}

// Applies `action`; returns the pictures it recorded (`frames`), if any.
async function act(page, action) {
  let frames;
  if (action.click !== undefined) {
    const [x, y] = await at(page, action.click, action.at);
    await page.mouse.move(x, y);
    await sleep(50);
    await page.mouse.click(x, y, { delay: 50 });
  } else if (action.right_click !== undefined) {
    const [x, y] = await at(page, action.right_click, action.at);
    await page.mouse.move(x, y);
    await sleep(50);
    await page.mouse.click(x, y, { button: "right", delay: 50 });
  } else if (action.drag !== undefined) {
    const [from, to] = action.drag;
    const [x0, y0] = await at(page, from);
    // TO: a widget, or [DX, DY] pixels from where the drag starts.
    const [x1, y1] = Array.isArray(to) ? [x0 + to[0], y0 + to[1]] : await at(page, to);
    await page.mouse.move(x0, y0);
    await sleep(50);
    await page.mouse.down();
    await sleep(100);
    await page.mouse.move(x1, y1, { steps: 12 });
    await sleep(100);
    await page.mouse.up();
  } else if (action.hover !== undefined) {
    const [x, y] = await at(page, action.hover, action.at);
    await page.mouse.move(x, y);
  } else if (action.wheel !== undefined) {
    const [x, y] = await at(page, action.wheel);
    await page.mouse.move(x, y);
    await sleep(50);
    await page.mouse.wheel({ deltaY: action.delta });
  } else if (action.settle !== undefined) {
    await settled(page);
  } else if (action.type !== undefined) {
    await page.keyboard.type(action.type, { delay: 30 });
  } else if (action.until !== undefined) {
    await at(page, action.until);
  } else if (action.download !== undefined) {
    await downloaded(join(request.downloads, action.download));
  } else if (action.press !== undefined) {
    const keys = action.press.split("+");
    const key = keys.pop();
    for (const m of keys) await page.keyboard.down(m);
    await page.keyboard.press(key);
    for (const m of keys.reverse()) await page.keyboard.up(m);
  } else if (action.clipboard !== undefined) {
    await page.evaluate((t) => navigator.clipboard.writeText(t), action.clipboard);
  } else if (action.fragment !== undefined) {
    await page.evaluate((f) => { location.hash = f; }, action.fragment);
  } else if (action.frames !== undefined) {
    frames = await nextFrames(page, action.frames);
  } else if (action.now !== undefined) {
    frames = [await now(page)];
  } else if (action.wait !== undefined) {
    await sleep(action.wait);
  } else if (action.capture !== undefined) {
    const [l, t] = await at(page, action.capture, [0, 0]);
    const [r, b] = await at(page, action.capture, [1, 1]);
    await page.screenshot({ path: join(request.downloads, action.file),
      clip: { x: l, y: t, width: r - l, height: b - t } });
  }
  await sleep(150);
  return frames;
}

try {
  let page;
  ({ browser, page } = await open(request.chromium, url, result));
  await page.setViewport(VIEWPORT);
  const cdp = await page.createCDPSession();
  await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: request.downloads });
  await browser.defaultBrowserContext().overridePermissions(url,
    ["clipboard-read", "clipboard-write", "clipboard-sanitized-write"]);
  const start = await started(page);
  Object.assign(result, start, { ready: start.started });
  if (result.started) {
    result.steps.push(await state(page, "first picture"));
    for (const step of request.steps) {
      doing = `step ${step.name}`;
      const frames = [];
      for (const action of step.actions) frames.push(...(await act(page, action)) ?? []);
      result.steps.push({ ...(await state(page, step.name)), frames });
      if (step.name === request.screenshot_step) await clipboardAndScreenshot(page);
    }
    if (request.screenshot_step === undefined) await clipboardAndScreenshot(page);
    // Share links, each in a fresh page.
    result.reopened = {};
    for (const link of request.reopen ?? []) {
      doing = `link ${link.name}`;
      const href = new URL(link.step !== undefined
        ? result.steps.find((s) => s.name === link.step).href
        : `${url}#${link.fragment}`);
      if (link.query !== undefined) href.search = link.query;
      const shared = await browser.newPage();
      await shared.setViewport(VIEWPORT);
      shared.on("console", (m) => result.console.push({ type: m.type(), text: m.text() }));
      shared.on("pageerror", (e) => result.page_errors.push(String(e)));
      // In front, as a tab a person opens: keys reach only the focused page's text boxes.
      await shared.bringToFront();
      await shared.goto(href.href, { waitUntil: "load" });
      const start = await started(shared);
      const reopened = { start };
      if (start.started) reopened.state = await state(shared, link.name);
      if (start.started && link.screenshot) await shared.screenshot({ path: link.screenshot });
      if (start.started && link.actions) {
        for (const action of link.actions) await act(shared, action);
        reopened.after = await state(shared, `${link.name} after`);
      }
      result.reopened[link.name] = reopened;
      await shared.close();
    }
  }
  const bare = await browser.newPage();
  await bare.evaluateOnNewDocument(() => { delete Navigator.prototype.gpu; });
  await bare.goto(url, { waitUntil: "load" });
  result.no_webgpu = await started(bare);
} catch (e) {
  result.driver_error = `${doing}: ${e.stack ?? e}`;
} finally {
  await browser?.close();
  server.close();
}
writeFileSync(resultPath, JSON.stringify(result));
