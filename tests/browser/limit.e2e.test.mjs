// End-to-end: LIMIT through the web client. (a) A solo game started from the lobby with one click
// and played to the score sheet; (b) two nations in two browser contexts (private room by link),
// with a late spectator, played to the score sheet. Every prompt is answered through the UI
// (playable cards are sometimes played with the form's defaults, otherwise the first choice).
//
// The server must already be running with LIMIT registered and serving clients/web/dist; its URL
// comes from PLATEAU_URL. playwright-core is taken from clients/web/node_modules, Chromium from
// CHROMIUM_PATH or /usr/bin/chromium. Screenshots go to tests/browser/artifacts/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ARTIFACTS, BASE, SKIP as skip, STEP_MS, enterName, launch, mulberry32, newPage, sleep } from "./support.mjs";

const GAME_MS = Number(process.env.PLATEAU_LIMIT_GAME_TIMEOUT_MS ?? 4 * 60 * 1000);
async function signature(page) {
  return page.evaluate(() => document.querySelector("[data-testid=limit-board]")?.getAttribute("data-sig") ?? "");
}

async function finished(page) {
  return (await page.getByTestId("score-sheet").count()) > 0;
}

async function myPromptKind(page) {
  return page.evaluate(() => {
    const b = document.querySelector("[data-testid=turn-banner]");
    if (b?.getAttribute("data-my-turn") !== "true") return "";
    return document.querySelector("[data-testid=prompt-panel]")?.getAttribute("data-kind") ?? "";
  });
}

/** Answers the open prompt of `page` through the UI. Returns what was done. */
async function answer(page, rng, stats) {
  const panel = page.getByTestId("prompt-panel").first();
  const kind = await panel.getAttribute("data-kind");
  stats.kinds[kind] = (stats.kinds[kind] ?? 0) + 1;
  if (kind === "keep_cards") {
    // Sometimes keep another card than the preselected one(s).
    const drawn = panel.getByTestId("drawn-card");
    const n = await drawn.count();
    const count = Number(await panel.getAttribute("data-count"));
    if (count === 1 && n > 1 && rng() < 0.5) await drawn.nth(1 + Math.floor(rng() * (n - 1))).click();
    await panel.getByTestId("choice-keep").click();
    return "keep";
  }
  if (kind === "discard") {
    const count = Number(await panel.getAttribute("data-count"));
    for (let i = 0; i < count; i++) await panel.getByTestId("discard-card").nth(i).click();
    await panel.getByTestId("choice-discard").click();
    return `discard ${count}`;
  }
  if (kind === "political_turn") {
    const playable = panel.locator("[data-testid=play-card]:not([disabled])");
    const n = await playable.count();
    if (n > 0 && rng() < 0.75) {
      const pick = playable.nth(Math.floor(rng() * n));
      const name = (await pick.innerText()).replace("▶", "").trim();
      // Open the play form from the prompt's list, or by clicking the card in the hand.
      if (rng() < 0.5) await pick.click();
      else await page.locator(`button[data-testid=hand-card][data-card="${await pick.getAttribute("data-card")}"]`).click();
      const form = panel.getByTestId("play-form");
      await form.waitFor();
      const confirm = form.getByTestId("play-confirm");
      if (await confirm.isEnabled()) {
        const before = await page.getByTestId("action-error").count();
        await confirm.click();
        // Either the play is accepted (the form closes with the board update) or refused.
        const until = Date.now() + STEP_MS;
        for (;;) {
          if ((await page.getByTestId("play-form").count()) === 0) { stats.plays.push(name); return `play ${name}`; }
          if ((await page.getByTestId("action-error").count()) > before || (await page.getByTestId("action-error").count()) > 0) break;
          assert.ok(Date.now() < until, `playing ${name} had no visible effect`);
          await sleep(50);
        }
        stats.refused.push(name);
      }
      await form.getByTestId("play-cancel").click();
    }
    await panel.getByTestId("choice-pass").click();
    return "pass";
  }
  const choices = panel.locator("[data-testid^=choice-]:not([disabled])");
  const n = await choices.count();
  assert.ok(n > 0, `prompt ${kind} has no enabled choice`);
  // The first choice mostly; now and then another one, so more of the game gets exercised.
  const i = rng() < 0.7 ? 0 : Math.floor(rng() * n);
  const id = await choices.nth(i).getAttribute("data-testid");
  await choices.nth(i).click();
  return id;
}

/**
 * Plays until every page shows the score sheet. `onMove(moves)` runs after each accepted move
 * (screenshots, checks). Returns the number of moves.
 */
async function playToTheEnd(pages, rng, stats, onMove) {
  const deadline = Date.now() + GAME_MS;
  let moves = 0;
  for (;;) {
    let done = true;
    for (const p of pages) done = (await finished(p)) && done;
    if (done) return moves;
    assert.ok(Date.now() < deadline, `the game did not end within ${GAME_MS} ms (${moves} moves played)`);
    let acted = false;
    for (const p of pages) {
      if (await finished(p)) continue;
      const kind = await myPromptKind(p);
      if (!kind) continue;
      const before = await signature(p);
      const errorsBefore = await p.getByTestId("action-error").count();
      const what = await answer(p, rng, stats);
      moves++;
      const until = Date.now() + STEP_MS;
      for (;;) {
        if ((await signature(p)) !== before || (await finished(p))) break;
        if (what === "pass" || !what.startsWith("play")) {
          const errs = await p.getByTestId("action-error").count();
          if (errs > errorsBefore) assert.fail(`"${what}" was refused: ${await p.getByTestId("action-error").innerText()}`);
        }
        assert.ok(Date.now() < until, `"${what}" (${kind}) had no visible effect`);
        await sleep(30);
      }
      acted = true;
      await onMove?.(moves, p);
    }
    if (!acted) await sleep(60);
    assert.ok(moves < 1500, "far more moves than a game of LIMIT takes");
  }
}

async function checkScoreSheet(page, nations) {
  const sheet = page.getByTestId("score-sheet");
  await sheet.waitFor();
  assert.equal(await sheet.getByTestId("score-nation").count(), nations);
  for (const row of ["gross_happiness", "financial", "territory", "military", "impact", "total"]) {
    assert.equal(await sheet.locator(`[data-testid=score-row-${row}] td`).count(), nations, `score line ${row}`);
  }
  // The total is the sum of the other lines.
  const cells = await sheet.evaluate((el) => {
    const val = (row) => [...el.querySelectorAll(`[data-testid=score-row-${row}] td`)].map((td) => Number(td.getAttribute("data-value")));
    return { parts: ["gross_happiness", "financial", "territory", "military", "impact"].map(val), total: val("total") };
  });
  cells.total.forEach((t, i) => assert.equal(t, cells.parts.reduce((s, p) => s + p[i], 0), `nation ${i}'s total`));
  await page.getByTestId("ranking").waitFor();
  assert.equal(await page.getByTestId("ranking-row").count(), nations);
}

test("LIMIT solo: one click from the lobby, played to the score sheet", { timeout: GAME_MS + 120_000, skip }, async () => {
  const started = Date.now();
  const browser = await launch();
  const errors = [];
  try {
    const { ctx, page } = await newPage(browser, errors, "solo");
    await page.goto(`${BASE}/#/`, { timeout: 30_000 });
    await enterName(page, "Solène");
    await page.getByTestId("play-solo-limit").click();
    const board = page.getByTestId("limit-board");
    await board.waitFor({ timeout: 30_000 });
    assert.equal(await board.getAttribute("data-solo"), "true");
    await page.getByTestId("star-nation").waitFor();
    await page.getByTestId("my-nation").waitFor();
    assert.equal(await page.getByTestId("other-nations").count(), 0, "solo: no other nation board");
    assert.match(await page.getByTestId("room").getAttribute("data-status"), /2|3/);

    const stats = { kinds: {}, plays: [], refused: [] };
    let shot = false;
    const moves = await playToTheEnd([page], mulberry32(7), stats, async (_m, p) => {
      if (!shot && Number(await board.getAttribute("data-generation")) >= 3 && (await myPromptKind(p)) === "political_turn") {
        shot = true;
        await p.screenshot({ path: join(ARTIFACTS, "limit-solo-midgame.png"), fullPage: true });
      }
    });
    assert.ok(shot, "the game should reach the third generation's political decisions");
    await checkScoreSheet(page, 1);
    await page.getByTestId("solo-verdict").waitFor();
    await page.getByTestId("score-sheet").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, "limit-solo-score.png"), fullPage: true });
    for (const k of ["choose_deck", "keep_cards", "political_turn"]) assert.ok(stats.kinds[k] > 0, `no ${k} prompt met`);
    assert.ok(stats.plays.length > 0, "at least one card was played");
    console.log(`solo: ${moves} moves in ${((Date.now() - started) / 1000).toFixed(1)} s; prompts ${JSON.stringify(stats.kinds)}; ` +
      `${stats.plays.length} cards played, ${stats.refused.length} refused (${stats.refused.join(", ")})`);
    // The replay shows the LIMIT board at every step, from the player's seat.
    await page.getByTestId("replay-link").click();
    await page.getByTestId("replay-viewer").waitFor();
    await page.locator("[data-testid=replay-step][data-step=\"0\"]").waitFor();
    await page.getByTestId("limit-board").waitFor();
    const total = Number(await page.getByTestId("replay-step").getAttribute("data-total"));
    assert.ok(total >= moves, `replay has ${total} steps, ${moves} moves were played`);
    const mid = Math.floor(total / 2);
    await page.getByTestId("replay-step-input").fill(String(mid));
    await page.getByTestId("replay-step-input").press("Enter");
    await page.locator(`[data-testid=replay-step][data-step="${mid}"]`).waitFor();
    await page.getByTestId("limit-board").waitFor();
    assert.equal(await page.getByTestId("prompt-panel").count(), 0, "a replay has no controls");
    await page.getByTestId("hand").waitFor();
    await page.screenshot({ path: join(ARTIFACTS, "limit-solo-replay.png"), fullPage: true });
    assert.deepEqual(errors, [], "uncaught errors in the page");
    await ctx.close();
  } finally {
    await browser.close();
  }
});

test("LIMIT for two nations with alliances: private room by link, a spectator, played to the score sheet", { timeout: GAME_MS + 120_000, skip }, async () => {
  const started = Date.now();
  const browser = await launch();
  const errors = [];
  try {
    const a = await newPage(browser, errors, "A");
    const b = await newPage(browser, errors, "B", { width: 1280, height: 900 });
    const A = a.page, B = b.page;
    await A.goto(`${BASE}/#/`, { timeout: 30_000 });
    await enterName(A, "Ada");
    await A.getByTestId("create-room-limit").click();
    await A.getByTestId("create-room-modal").waitFor();
    await A.getByTestId("visibility-private").click();
    await A.getByTestId("seats-2").click();
    await A.getByTestId("option-first-game").check();
    await A.getByTestId("option-alliances").check();
    await A.getByTestId("create-room-submit").click();
    const share = A.getByTestId("share-link");
    await share.waitFor();
    const link = await share.inputValue();
    assert.match(link, /#\/join\/[^/]+$/);

    await B.goto(link, { timeout: 30_000 });
    await enterName(B, "Bram");
    await B.getByTestId("ready-toggle").click();
    await B.locator("[data-testid=ready-toggle][aria-pressed=true]").waitFor();
    await A.locator("[data-testid=start-game]:not([disabled])").waitFor();
    await A.getByTestId("start-game").click();
    for (const p of [A, B]) await p.getByTestId("limit-board").waitFor({ timeout: 30_000 });
    // First game option: 4 $ each.
    assert.equal((await A.locator("[data-testid=my-nation] [data-testid=money] b").innerText()).trim(), "4");
    assert.equal(await A.getByTestId("nation-summary").count(), 1, "A sees B's board, compact");
    await A.getByTestId("nation-expand").click();
    await A.locator("[data-testid=other-nations] [data-testid=nation-board]").waitFor();
    await A.getByTestId("nation-collapse").click();

    // A late arrival watches: public boards, no hand, no controls.
    const c = await newPage(browser, errors, "C", { width: 1100, height: 800 });
    const C = c.page;
    await C.goto(link, { timeout: 30_000 });
    await enterName(C, "Cleo");
    await C.getByTestId("join-error").waitFor();
    await C.getByTestId("spectate").click();
    await C.getByTestId("limit-board").waitFor();
    await C.getByTestId("spectator-note").waitFor();
    assert.equal(await C.getByTestId("nation-summary").count(), 2);
    assert.equal(await C.getByTestId("hand").count(), 0, "a spectator has no hand");
    assert.equal(await C.getByTestId("prompt-panel").count(), 0, "a spectator has no controls");
    assert.equal(await C.getByTestId("turn-banner").getAttribute("data-my-turn"), "false");

    const stats = { kinds: {}, plays: [], refused: [] };
    let shot = false;
    const moves = await playToTheEnd([A, B], mulberry32(2024), stats, async (_m, p) => {
      if (!shot && Number(await A.getByTestId("limit-board").getAttribute("data-generation")) >= 3 && (await myPromptKind(p)) === "political_turn") {
        shot = true;
        await p.screenshot({ path: join(ARTIFACTS, "limit-duo-midgame.png"), fullPage: true });
        await C.screenshot({ path: join(ARTIFACTS, "limit-spectator.png"), fullPage: true });
        assert.equal(await C.getByTestId("prompt-panel").count(), 0, "a spectator never gets controls");
      }
    });
    assert.ok(shot, "the game should reach the third generation's political decisions");
    for (const p of [A, B]) await checkScoreSheet(p, 2);
    await C.getByTestId("score-sheet").waitFor();
    await A.getByTestId("score-sheet").scrollIntoViewIfNeeded();
    await A.screenshot({ path: join(ARTIFACTS, "limit-duo-score.png"), fullPage: true });
    assert.ok(stats.kinds.political_turn > 0 && stats.kinds.choose_deck > 0);
    assert.ok(stats.kinds.alliance_turn > 0, "the Alliance step asked for decisions");
    console.log(`two nations: ${moves} moves in ${((Date.now() - started) / 1000).toFixed(1)} s; prompts ${JSON.stringify(stats.kinds)}; ` +
      `${stats.plays.length} cards played, ${stats.refused.length} refused (${stats.refused.join(", ")})`);
    assert.deepEqual(errors, [], "uncaught errors in the pages");
    for (const x of [a, b, c]) await x.ctx.close();
  } finally {
    await browser.close();
  }
});
