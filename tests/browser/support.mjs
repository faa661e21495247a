// What the browser tests share: where the server and Chromium are, how Chromium is launched on
// this kind of machine, pages that collect page errors, the name prompt, and a seeded random
// source so a failing run can be repeated.
import { createRequire } from "node:module";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
// It and the tests' other packages come from the web client's dependencies (npm ci in clients/web).
export const webRequire = createRequire(join(here, "../../clients/web/package.json"));
const { chromium } = webRequire("playwright-core");

export const BASE = (process.env.PLATEAU_URL ?? "").replace(/\/+$/, "");
export const SKIP = !BASE && "PLATEAU_URL is not set";
export const ARTIFACTS = join(here, "artifacts");
export const STEP_MS = 15_000;

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Debian's Chromium, headless, without the background traffic a closed network refuses. */
export async function launch() {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
    timeout: 60_000,
  });
}

/** A page in its own context (own storage: its own player), its page errors collected. */
export async function newPage(browser, errors, who, viewport = { width: 1400, height: 1000 }) {
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  page.setDefaultTimeout(STEP_MS);
  page.on("pageerror", (e) => errors.push(`${who}: ${e.message}`));
  if (process.env.PLATEAU_E2E_TRACE) {
    // Each page's console and its WebSockets opened and closed, timed, beside the servers' logs.
    const t = () => new Date().toISOString().slice(11, 23);
    page.on("console", (m) => console.log(`# ${t()} ${who} console ${m.type()}: ${m.text()}`));
    page.on("websocket", (ws) => {
      console.log(`# ${t()} ${who} ws open ${ws.url()}`);
      ws.on("close", () => console.log(`# ${t()} ${who} ws close ${ws.url()}`));
      ws.on("socketerror", (e) => console.log(`# ${t()} ${who} ws error ${e}`));
    });
  }
  return { ctx, page };
}

export async function enterName(page, name) {
  await page.getByTestId("name-input").fill(name, { timeout: STEP_MS });
  await page.getByTestId("name-submit").click({ timeout: STEP_MS });
  await page.getByTestId("me-name").filter({ hasText: name }).waitFor({ timeout: STEP_MS });
}

/** The host's page, in the lobby as Ada, and `guests` more pages ("B", "C"...) not yet anywhere. */
export async function hostAndGuests(browser, errors, guests) {
  const { page: host } = await newPage(browser, errors, "A");
  const pages = [host];
  for (let k = 0; k < guests; k++) {
    pages.push((await newPage(browser, errors, String.fromCharCode(66 + k), { width: 1280, height: 900 })).page);
  }
  await host.goto(`${BASE}/#/`, { timeout: 30_000 });
  await enterName(host, "Ada");
  return pages;
}

export function mulberry32(seed) {
  return () => {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * From the lobby (its player already named), `page` opens a private room of `game` for `seats`
 * players, `setOptions(page)` filling in the game's options in the form, and returns the room's
 * share link.
 */
export async function createPrivateRoom(page, game, seats, setOptions = async () => {}) {
  await page.getByTestId(`create-room-${game}`).click();
  await page.getByTestId("create-room-modal").waitFor();
  await page.getByTestId("visibility-private").click();
  await page.getByTestId(`seats-${seats}`).click();
  await setOptions(page);
  await page.getByTestId("create-room-submit").click();
  const share = page.getByTestId("share-link");
  await share.waitFor();
  const link = await share.inputValue();
  if (!/#\/join\/[^/]+\/[^/]+$/.test(link)) throw new Error(`private share link expected, got ${link}`);
  return link;
}

/** `page` opens a room's share link, names itself `name`, takes a seat and gets ready. */
export async function joinReady(page, link, name) {
  await page.goto(link, { timeout: 30_000 });
  await enterName(page, name);
  await page.getByTestId("take-seat").click();
  await page.getByTestId("ready-toggle").click();
  await page.locator("[data-testid=ready-toggle][aria-pressed=true]").waitFor();
}

/** Selects a country offered by the open map question (the first of `wanted` that can be hit, or
 * any offered one) by clicking a point where it is the topmost shape — countries are not convex,
 * some have far-away islands, and sticky bars may cover parts — and waits for the selection.
 * Returns its map id; the caller confirms (map-confirm) when it has checked what it wants. */
export async function selectOnMap(page, wanted = null) {
  const map = page.getByTestId("world-map");
  await map.waitFor({ timeout: STEP_MS });
  await map.scrollIntoViewIfNeeded();
  const point = await page.evaluate((ids) => {
    const paths = ids
      ? ids.map((id) => document.querySelector(`[data-testid=world-map] path.option[data-id="${id}"]`)).filter(Boolean)
      : [...document.querySelectorAll("[data-testid=world-map] path.option")];
    for (const path of paths) {
      const r = path.getBoundingClientRect();
      for (let i = 1; i < 24; i++) {
        for (let j = 1; j < 24; j++) {
          const x = r.left + (r.width * i) / 24, y = r.top + (r.height * j) / 24;
          if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
          if (document.elementFromPoint(x, y) === path) return { x, y, id: path.getAttribute("data-id") };
        }
      }
    }
    return null;
  }, wanted);
  if (!point) throw new Error(`no offered country${wanted ? ` among ${wanted.join(", ")}` : ""} can be clicked on the map`);
  await page.mouse.click(point.x, point.y);
  await page.locator(`[data-testid=world-map] path[data-id="${point.id}"][data-selected="true"]`).waitFor({ timeout: STEP_MS });
  return point.id;
}

/** Whether the page's player may act now (every board's turn banner says so). */
export async function isMyTurn(page) {
  return page.evaluate(() =>
    document.querySelector("[data-testid=turn-banner]")?.getAttribute("data-my-turn") === "true");
}

/** Whether the page has no move of its own waiting for the server's answer (a board can change
 * meanwhile through another player's move, so its change alone does not say the move was taken). */
export async function noMoveInFlight(page) {
  return page.evaluate(() => (document.querySelector("[data-testid=game-area]")?.getAttribute("data-in-flight") ?? "0") === "0");
}

export async function gameOver(page) {
  return (await page.getByTestId("game-over").count()) > 0;
}

/** Waits, polling, until `check()` is true; fails naming `what` after `ms`. */
export async function until(what, check, ms = STEP_MS) {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() >= end) throw new Error(`timed out: ${what}`);
    await sleep(50);
  }
}

/** A Globalissimo board's state as one string: it changes with every accepted action (phase,
 * round, who acts, the log, tiles down, refused answers). */
export async function globalissimoBoard(page) {
  return page.evaluate(() => {
    const b = document.querySelector("[data-testid=gl-board]");
    if (!b) return "";
    return [
      b.getAttribute("data-phase"), b.getAttribute("data-round"), b.getAttribute("data-to-act"),
      document.querySelectorAll("[data-testid=game-log] li").length,
      document.querySelectorAll("[data-testid=country-card][data-free=false]").length,
      document.querySelectorAll(".gl-wrong .chip").length,
    ].join("|");
  });
}

/** Answers the page's open Globalissimo barrier question, right or wrong (the move is what
 * counts): `capital` typed for an orange one, any offered country confirmed for a violet one.
 * Returns "capital" or "map". */
export async function answerQuestion(page, kind, capital = "Lima") {
  if (kind === "orange") {
    await page.getByTestId("capital-input").fill(capital, { timeout: STEP_MS });
    await page.getByTestId("capital-submit").click({ timeout: STEP_MS });
    return "capital";
  }
  await selectOnMap(page);
  await page.getByTestId("map-confirm").click({ timeout: STEP_MS });
  return "map";
}

/** Whatever the page's Globalissimo player has to do now: place a tile (position 1 on the first
 * free card), or answer the barrier question. Returns "tile", "capital" or "map". */
export async function playMove(page) {
  const question = page.getByTestId("question-panel");
  if (await question.count()) return answerQuestion(page, await question.getAttribute("data-kind"));
  await page.getByTestId("tile-pos-1").click();
  await page.locator("button[data-testid=country-card][data-free=true]").first().click();
  return "tile";
}

/** Two players, each in a page of their own: Ada (A) opens a private room of `game` for two
 * (`setOptions` as createPrivateRoom's), Bob (B) comes in by its link and gets ready, Ada starts
 * the game, and both boards (`board`: its test id) are shown. */
export async function twoPlayerGame(browser, errors, game, board, setOptions = async () => {}) {
  const { page: A } = await newPage(browser, errors, "A");
  const { page: B } = await newPage(browser, errors, "B", { width: 1280, height: 900 });
  await A.goto(`${BASE}/#/`, { timeout: 30_000 });
  await enterName(A, "Ada");
  const link = await createPrivateRoom(A, game, 2, setOptions);
  await joinReady(B, link, "Bob");
  await A.locator("[data-testid=start-game]:not([disabled])").waitFor();
  await A.getByTestId("start-game").click();
  for (const p of [A, B]) await p.getByTestId(board).waitFor({ timeout: 30_000 });
  return { A, B };
}
