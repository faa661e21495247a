// End-to-end: the web client on a phone (390×844, touch, mobile emulation). Phoebe opens the lobby,
// finds the folded header menu, starts Globalissimo against two bots with one click and plays it
// to the final ranking through the phone layout: the "Your move" button of the bar at the bottom
// brings her move into view under the turn banner, which stays stuck under the header while the
// page scrolls. Sam watches from a desktop page and writes in the chat: Phoebe's Chat button
// counts it, the drawer opens, she answers from it and shuts it. Neither the lobby nor the room
// may scroll sideways. Then LIMIT's, Guerre Froide's and Contrôle Global's boards, each against
// bots, must fit the same screen. Needs PLATEAU_URL, as the other tests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ARTIFACTS, BASE, SKIP, STEP_MS, answerQuestion, enterName, gameOver, globalissimoBoard, isMyTurn, launch, mulberry32, newPage, sleep, until } from "./support.mjs";

const OVERALL_MS = Number(process.env.PLATEAU_E2E_TIMEOUT_MS ?? 10 * 60 * 1000);
const WIDTH = 390;
const PHONE = { viewport: { width: WIDTH, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/**
 * Nothing wider than the phone. A mobile browser widens its layout viewport to content that
 * does not fit (and zooms out), so innerWidth must still be the phone's too.
 */
async function fitsWidth(page, where) {
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }));
  assert.equal(inner, WIDTH, `${where}: the page was laid out ${inner} px wide`);
  assert.ok(scroll <= inner, `${where}: the page scrolls sideways (${scroll} px in ${inner})`);
}

/** The header: one row, inside the screen, every part of it too. */
async function headerFits(page, where) {
  const parts = await page.evaluate(() => {
    const bar = document.querySelector(".topbar").getBoundingClientRect();
    const kids = [...document.querySelectorAll(".topbar > *")]
      .filter((el) => getComputedStyle(el).display !== "none" && getComputedStyle(el).position !== "absolute")
      .map((el) => { const r = el.getBoundingClientRect(); return { cls: el.className, left: r.left, right: r.right }; });
    return { bar: { left: bar.left, right: bar.right, height: bar.height }, kids };
  });
  assert.ok(parts.bar.left >= 0 && parts.bar.right <= WIDTH + 0.5, `${where}: the header is wider than the screen`);
  assert.ok(parts.bar.height <= 64, `${where}: the header is ${parts.bar.height} px tall`);
  for (const k of parts.kids) assert.ok(k.left >= 0 && k.right <= WIDTH + 0.5, `${where}: ${k.cls} sticks out of the header`);
}

/** Where the page's move is asked: this player's question, else the cards to place a tile on. */
const ANCHOR = "[data-testid=question-panel][data-prompt], [data-testid=display]";

/** From the top of the page, the bar's button brings the move between the banner and the bar. */
async function jumpToMove(page, anchor = ANCHOR) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const jump = page.getByTestId("jump-to-action");
  await jump.click();
  // Pressed again if the page stopped short of the move: the board above it may have grown
  // (another player's move) while the smooth scroll ran to the old place.
  let lastY = -1;
  await until("the move scrolls into view under the turn banner", async () => {
    const { shown, y } = await page.evaluate((sel) => {
      const target = document.querySelector(sel)?.getBoundingClientRect();
      const banner = document.querySelector("[data-testid=turn-banner]").getBoundingClientRect();
      const bar = document.querySelector("[data-testid=phone-bar]").getBoundingClientRect();
      return { shown: !!target && window.scrollY > 0 && target.top >= banner.bottom - 2 && target.top < bar.top - 40, y: window.scrollY };
    }, anchor);
    if (!shown && y === lastY) await jump.click({ timeout: 2000 }).catch(() => {});
    lastY = y;
    return shown;
  });
}

const shotQuestions = new Set();

/** Plays the phone's move: answers its question, or places a tile. */
async function playMove(page, rng) {
  const question = page.locator("[data-testid=question-panel][data-prompt]");
  if (await question.count()) {
    const kind = await question.getAttribute("data-kind");
    if (!shotQuestions.has(kind)) {
      shotQuestions.add(kind);
      await page.screenshot({ path: join(ARTIFACTS, `phone-question-${kind}.png`) });
    }
    // On the map, a point not under the sticky header, banner or bar (selectOnMap hits only
    // the country).
    return answerQuestion(page, kind);
  }
  const tiles = page.locator("[data-testid^=tile-pos-]:not([disabled])");
  const n = await tiles.count();
  assert.ok(n > 0, "it is the phone's turn to place but no position can be chosen");
  const pos = 1 + Math.floor(rng() * n);
  await page.getByTestId(`tile-pos-${pos}`).click();
  const free = page.locator("button[data-testid=country-card][data-free=true]");
  const cards = await free.count();
  assert.ok(cards > 0, "no free country card to place a tile on");
  await free.nth(Math.floor(rng() * cards)).click();
  return `place ${pos}`;
}

/** Scrolled well down the board, the banner is still under the header and the bar at the bottom. */
async function stuckWhileScrolled(page, shot) {
  // Scrolled again on every poll: a smooth scroll to the last move (the "Your move" button) may
  // still be running on a loaded machine and would carry the page back to where it was going.
  const scroll = () => page.evaluate(() => {
    if (window.scrollY <= 300) window.scrollTo({ top: 700, behavior: "instant" });
    return window.scrollY > 300;
  });
  try {
    await until("the page scrolls", scroll);
  } catch (e) {
    const m = await page.evaluate(() => `scrollY ${window.scrollY}, page ${document.documentElement.scrollHeight} high, screen ${innerHeight}`);
    throw new Error(`${e.message} (${m})`);
  }
  const r = await page.evaluate(() => {
    const b = document.querySelector("[data-testid=turn-banner]").getBoundingClientRect();
    const p = document.querySelector("[data-testid=phone-bar]").getBoundingClientRect();
    return { banner: b.top, bar: [p.top, p.bottom], h: innerHeight };
  });
  assert.ok(r.banner >= 0 && r.banner < 100, `the turn banner scrolled away (top at ${r.banner})`);
  assert.ok(r.bar[1] <= r.h + 1 && r.bar[0] > r.h / 2, `the phone bar is not at the bottom of the screen (${r.bar} of ${r.h})`);
  if (shot) await page.screenshot({ path: join(ARTIFACTS, shot) });
}

test("a phone plays Globalissimo against bots, with its header menu, sticky banner and chat drawer", { timeout: OVERALL_MS, skip: SKIP }, async () => {
  const deadline = Date.now() + OVERALL_MS - 60_000;
  const browser = await launch();
  const errors = [];
  try {
    const ctx = await browser.newContext(PHONE);
    const P = await ctx.newPage();
    P.setDefaultTimeout(STEP_MS);
    P.on("pageerror", (e) => errors.push(`Phoebe: ${e.message}`));

    // --- The lobby: nothing sideways, a one-row header with the links in its menu.
    await P.goto(`${BASE}/#/`, { timeout: 30_000 });
    await enterName(P, "Phoebe");
    await P.getByTestId("game-card-globalissimo").waitFor();
    await fitsWidth(P, "lobby");
    await headerFits(P, "lobby");
    assert.equal(await P.locator(".topbar .brand-name").isVisible(), false, "the brand is shortened to its logo");
    assert.equal(await P.getByTestId("nav-replays").isVisible(), false, "the header's links are folded away");
    await P.screenshot({ path: join(ARTIFACTS, "phone-lobby.png"), fullPage: true });
    await P.getByTestId("nav-toggle").click();
    await P.getByTestId("nav-replays").waitFor();
    await P.screenshot({ path: join(ARTIFACTS, "phone-menu.png") });
    await P.getByTestId("nav-replays").click();
    await until("the menu's link leads to the replays", () => P.url().includes("#/replays"));
    await P.getByTestId("nav-lobby").waitFor({ state: "hidden" });
    await P.getByTestId("nav-toggle").click();
    await P.getByTestId("nav-lobby").click();
    await P.getByTestId("game-card-globalissimo").waitFor();

    // --- One click: Phoebe and two bots.
    await P.getByTestId("play-bots-globalissimo").click();
    await P.getByTestId("gl-board").waitFor({ timeout: 30_000 });
    await P.getByTestId("phone-bar").waitFor();
    await fitsWidth(P, "room");
    await headerFits(P, "room");
    // The long and secondary parts start folded: the log, the links to share.
    // (Polled: the log is folded by an effect, a frame after the board shows.)
    await until("the log starts folded on a phone", async () => !(await P.getByTestId("game-log").evaluate((d) => d.open)));
    await until("the share links start folded on a phone", async () => !(await P.getByTestId("share-box").evaluate((d) => d.open)));
    // The chat is a drawer, shut.
    const drawer = P.getByTestId("chat-drawer");
    assert.equal(await drawer.getAttribute("data-open"), "false");
    assert.equal(await drawer.isVisible(), false, "the shut drawer shows");
    await P.screenshot({ path: join(ARTIFACTS, "phone-room.png") });

    // --- Sam watches from a desktop and says hello: the Chat button counts it.
    const { ctx: ctxS, page: S } = await newPage(browser, errors, "Sam", { width: 1200, height: 900 });
    const watchLink = await P.evaluate(() => document.querySelector("[data-testid=watch-link]")?.value ?? "");
    assert.match(watchLink, /#\/watch\//);
    await S.goto(watchLink, { timeout: 30_000 });
    await enterName(S, "Sam");
    await S.getByTestId("gl-board").waitFor({ timeout: 30_000 });
    await S.getByTestId("chat-input").fill("Go Phoebe!");
    await S.getByTestId("chat-send").click();
    await P.locator("[data-testid=chat-unread]", { hasText: "1" }).waitFor();

    // --- The drawer opens over the page, the line is there; Phoebe answers and shuts it.
    await P.getByTestId("chat-toggle").click();
    await P.locator("[data-testid=chat-drawer][data-open=true]").waitFor();
    await drawer.waitFor({ state: "visible" });
    await P.locator("[data-testid=chat-lines] .chat-line", { hasText: "Go Phoebe!" }).waitFor();
    assert.equal(await P.getByTestId("chat-unread").count(), 0, "the count stays once the drawer is open");
    await P.getByTestId("chat-input").fill("Thanks Sam");
    await P.getByTestId("chat-send").click();
    await P.locator("[data-testid=chat-lines] .chat-line", { hasText: "Thanks Sam" }).waitFor();
    await S.locator("[data-testid=chat-lines] .chat-line", { hasText: "Thanks Sam" }).waitFor();
    await fitsWidth(P, "room with the chat open");
    await P.screenshot({ path: join(ARTIFACTS, "phone-chat.png") });
    await P.getByTestId("chat-toggle").click();
    await P.locator("[data-testid=chat-drawer][data-open=false]").waitFor({ state: "attached" });  // hidden once it has shut
    await drawer.waitFor({ state: "hidden" });
    assert.equal(await P.getByTestId("chat-unread").count(), 0, "Phoebe's own line is no unread line");

    // --- The whole game on the phone.
    const rng = mulberry32(390844);
    let moves = 0;
    let scrolled = false;
    while (!(await gameOver(P))) {
      assert.ok(Date.now() < deadline, `game not finished before the deadline (${moves} moves played)`);
      if (!scrolled && moves >= 2) {
        scrolled = true;
        await stuckWhileScrolled(P, "phone-scrolled.png");
        continue;
      }
      if (!(await isMyTurn(P))) {
        await sleep(100);
        continue;
      }
      await jumpToMove(P);
      if (moves === 0) await P.screenshot({ path: join(ARTIFACTS, "phone-move.png") });
      const before = await globalissimoBoard(P);
      const what = await playMove(P, rng);
      moves++;
      await until(`the ${what} move shows`, async () => {
        if (await P.getByTestId("action-error").count()) assert.fail(`move "${what}" was refused: ${await P.getByTestId("action-error").innerText()}`);
        return (await globalissimoBoard(P)) !== before || (await gameOver(P));
      });
      assert.ok(moves < 400, "far more moves than a game can take");
    }
    assert.ok(moves >= 10, `ten rounds take at least ten of Phoebe's moves, saw ${moves}`);

    // --- The final ranking, on the phone.
    await P.getByTestId("ranking").waitFor();
    assert.equal(await P.getByTestId("ranking-row").count(), 3);
    assert.match(await P.getByTestId("ranking").innerText(), /Phoebe/);
    assert.match(await P.getByTestId("phone-status").innerText(), /Game over/);
    assert.equal(await P.getByTestId("jump-to-action").count(), 0, "nothing to jump to once the game is over");
    await fitsWidth(P, "final ranking");
    await P.getByTestId("game-over").scrollIntoViewIfNeeded();
    await P.screenshot({ path: join(ARTIFACTS, "phone-ranking.png") });

    assert.deepEqual(errors, [], "uncaught errors in the pages");
    await ctxS.close();
    await ctx.close();
  } finally {
    await browser.close();
  }
});

// The other games' boards on the same phone: each against bots from the lobby's one click, laid
// out within the screen's width, with the bar's button bringing the move under the banner.
const OTHER_BOARDS = [
  { game: "limit", board: "limit-board", anchor: "[data-testid=core-prompt], [data-testid=decision]" },
  { game: "guerre_froide", board: "gf-board", anchor: "[data-testid=desk]" },
  { game: "controle_global", board: "cg-board", anchor: "[data-testid=core-prompt], [data-testid=cg-moves]" },
];

test("LIMIT's, Guerre Froide's and Contrôle Global's boards fit a phone", { timeout: OVERALL_MS, skip: SKIP }, async () => {
  const browser = await launch();
  const errors = [];
  try {
    for (const { game, board, anchor } of OTHER_BOARDS) {
      const ctx = await browser.newContext(PHONE);
      const P = await ctx.newPage();
      P.setDefaultTimeout(STEP_MS);
      P.on("pageerror", (e) => errors.push(`${game}: ${e.message}`));
      await P.goto(`${BASE}/#/`, { timeout: 30_000 });
      await enterName(P, "Phoebe");
      await P.getByTestId(`play-bots-${game}`).click();
      await P.getByTestId(board).waitFor({ timeout: 30_000 });
      await P.getByTestId("phone-bar").waitFor();
      // The first decision is the player's in each game (LIMIT's first question, Guerre
      // Froide's secret pick, Contrôle Global's faction, picked last player first); the bots may
      // be quicker, so wait for it rather than look once.
      await until(`${game}: the phone player is asked for a move`, () => isMyTurn(P), 30_000);
      await fitsWidth(P, game);
      await headerFits(P, game);
      await P.screenshot({ path: join(ARTIFACTS, `phone-${game}.png`) });
      await jumpToMove(P, anchor);
      await fitsWidth(P, `${game}, at the move`);
      await P.screenshot({ path: join(ARTIFACTS, `phone-${game}-move.png`) });
      await stuckWhileScrolled(P);
      await ctx.close();
    }
    assert.deepEqual(errors, [], "uncaught errors in the pages");
  } finally {
    await browser.close();
  }
});
