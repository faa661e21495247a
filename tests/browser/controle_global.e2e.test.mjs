// End-to-end: Contrôle Global through the web client, three organisations in three browser contexts (a private room by link) and a spectator, played from the board for several rounds.
//
// Every move goes through the UI: the moves the view publishes through the kit's picker (a card
// taken from the hand by a click, a region step by a click on the map or on the region's card, the
// rest as the picker's choices, then Play), the rules' questions (a region, a player, a category,
// a pile) in the generic prompt panel. Along the way a published move is never refused, the
// highlighted cards and regions are exactly the picker's choices, a seat that may not act has
// nothing to click, nobody sees another player's hand, and no page logs an error.
//
// The server must already be running with Contrôle Global registered and serving
// clients/web/dist; its URL comes from PLATEAU_URL (see support.mjs). Screenshots go to
// tests/browser/artifacts/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ARTIFACTS, SKIP as skip, STEP_MS, createPrivateRoom, enterName, hostAndGuests, joinReady, launch, mulberry32, newPage, noMoveInFlight, sleep } from "./support.mjs";

const GAME_MS = Number(process.env.PLATEAU_CG_GAME_TIMEOUT_MS ?? 6 * 60 * 1000);
// Rounds to play through: the first three end (set-up, turns, civil society, the end of a round).
const UNTIL_ROUND = Number(process.env.PLATEAU_CG_ROUNDS ?? 4);
// plateau.v1.PromptKind, as the panel's data-kind.
const CHOOSE = "1", NUMBER = "2", ORDER = "3", YES_NO = "4";

// Every element of the board that makes a move: a seat that may not act has none of them.
const MOVE_ELEMENTS = ["[data-testid=cg-moves]", "[data-testid=move-choice]", "[data-testid=move-play]", "button[data-testid=hand-card]",
  "[data-testid=region][data-target=true]", "[data-testid=region-target]"].join(", ");

function board(page) {
  return page.getByTestId("cg-board");
}

async function finished(page) {
  return (await page.getByTestId("game-over").count()) > 0 || (await page.getByTestId("final-score").count()) > 0;
}

async function round(page) {
  return Number(await board(page).getAttribute("data-round"));
}

async function myTurn(page) {
  return (await page.getByTestId("turn-banner").getAttribute("data-my-turn")) === "true";
}

/** What changes with every accepted move: the log, the step, who acts, the viewer's hand and resources. */
async function signature(page) {
  return page.evaluate(() => {
    let top = -1;
    for (const li of document.querySelectorAll("[data-testid=game-log] li[data-seq]")) top = Math.max(top, Number(li.getAttribute("data-seq")));
    const b = document.querySelector("[data-testid=cg-board]");
    const you = b?.getAttribute("data-you");
    const res = [...document.querySelectorAll(`[data-testid=resources-${you}] [data-count]`)].map((e) => e.getAttribute("data-count")).join(",");
    return [top, b?.getAttribute("data-round"), b?.getAttribute("data-phase"), b?.getAttribute("data-to-act"), b?.getAttribute("data-drawing"),
      document.querySelector(`[data-testid=hand-size-${you}]`)?.getAttribute("data-count"), res,
      document.querySelector("[data-testid=core-prompt]")?.getAttribute("data-prompt") ?? ""].join("|");
  });
}

/**
 * On `page`, when the seat may not act (its banner says so and nothing is asked), nothing on the
 * board makes a move. Read in one go, so the answer and the elements come from the same view.
 */
async function checkIdleHasNothing(page) {
  const found = await page.evaluate((sel) => {
    const banner = document.querySelector("[data-testid=turn-banner]");
    if (!banner || banner.getAttribute("data-my-turn") === "true" || document.querySelector("[data-testid=core-prompt]")) return null;
    return [...document.querySelectorAll(sel)].map((el) => el.getAttribute("data-testid"));
  }, MOVE_ELEMENTS);
  if (found === null) return false;
  assert.deepEqual(found, [], "a seat that may not act is offered moves");
  return true;
}

/** No page shows a card of another player's hand: player panels hold backs only. */
async function checkHandsHidden(page) {
  const faces = await page.locator("[data-testid=players] [data-testid=card-face]").count();
  assert.equal(faces, 0, "a player's panel shows a card's face");
}

/** Waits until the move just sent is taken (the board moved on) or refused (which fails the test). */
async function settled(page, before, errorsBefore, what) {
  const until = Date.now() + STEP_MS;
  for (;;) {
    if ((await page.getByTestId("action-error").count()) > errorsBefore) {
      assert.fail(`${what}, as published, was refused: ${await page.getByTestId("action-error").first().innerText()}`);
    }
    if ((await noMoveInFlight(page)) && (await signature(page)) !== before) return;
    assert.ok(Date.now() < until, `${what} had no visible effect`);
    await sleep(50);
  }
}

/** Answers the open question in the generic panel. */
async function answerPrompt(page, core, rng, stats) {
  const kind = await core.getAttribute("data-kind");
  stats.prompts[kind] = (stats.prompts[kind] ?? 0) + 1;
  if (kind === CHOOSE) {
    const options = core.locator("[data-testid^=prompt-option-]");
    const n = await options.count();
    const lo = Number(await core.getAttribute("data-min"));
    assert.ok(n > 0 && n >= lo, `a question with ${n} options for at least ${lo}`);
    for (let i = 0; i < Math.max(1, lo); i++) await options.nth((Math.floor(rng() * n) + i) % n).click();
    await core.getByTestId("prompt-submit").click();
    return "answer";
  }
  if (kind === ORDER) {
    await core.getByTestId("prompt-submit").click();
    return "order";
  }
  if (kind === NUMBER) {
    await core.getByTestId("prompt-number").fill(await core.getAttribute("data-min"));
    await core.getByTestId("prompt-submit").click();
    return "number";
  }
  if (kind === YES_NO) {
    await core.getByTestId(rng() < 0.5 ? "prompt-yes" : "prompt-no").click();
    return "yes_no";
  }
  assert.fail(`a question of kind ${kind} in Contrôle Global`);
}

/** The picker's choices now: keys and kinds. */
async function choices(page) {
  return page.locator("[data-testid=cg-moves] [data-testid=move-choice]").evaluateAll((els) =>
    els.map((e) => ({ key: e.getAttribute("data-key"), kind: e.getAttribute("data-kind") })));
}

/**
 * The highlighted cards of the hand and regions of the map are exactly those the picker's choices
 * stand for (both read the published tree): a card's key is "card:<id>" or "discard:<id>", a
 * region's "region:<index>".
 */
async function checkHighlights(page, keys) {
  const cards = (await page.locator("[data-testid=my-hand] [data-testid=hand-card][data-target=true]").evaluateAll((els) =>
    [...new Set(els.map((e) => e.getAttribute("data-card")))])).sort();
  const cardKeys = [...new Set(keys.map((k) => /^(card|discard):(.+)$/.exec(k)?.[2]).filter(Boolean))].sort();
  assert.deepEqual(cards, cardKeys, "the hand's highlighted cards and the picker's choices");
  const regions = (await page.locator("[data-testid=region][data-target=true]").evaluateAll((els) => els.map((e) => e.getAttribute("data-region")))).sort();
  const regionKeys = keys.map((k) => /^region:(\d+)$/.exec(k)?.[1]).filter(Boolean).sort();
  assert.deepEqual(regions, regionKeys, "the map's highlighted regions and the picker's choices");
  return { cards, regions };
}

/** Picks the next choice: mostly onward (a draw, an effect, done investing), now and then anything. */
function preferred(list, rng) {
  const draws = list.filter((c) => /^(draw:|keep$)/.test(c.key));
  if (draws.length && rng() < 0.85) return draws[Math.floor(rng() * draws.length)];
  const done = list.find((c) => c.key === "done");
  if (done && rng() < 0.6) return done;
  const effects = list.filter((c) => /^effect:[1-9]/.test(c.key));
  if (effects.length && rng() < 0.8) return effects[Math.floor(rng() * effects.length)];
  return list[Math.floor(rng() * list.length)];
}

/** One move down the published tree to Play, part by clicks on the board. Returns its path. */
async function playMove(page, rng, stats) {
  const picker = page.locator("[data-testid=cg-moves] [data-testid=move-picker]");
  for (let depth = 0; (await page.locator("[data-testid=cg-moves] [data-testid=move-play]").count()) === 0; depth++) {
    assert.ok(depth < 8, "the picker never reached a move to play");
    const list = await choices(page);
    assert.ok(list.length > 0, "a step of the picker offers nothing");
    const { cards, regions } = await checkHighlights(page, list.map((c) => c.key));
    const path = (await picker.getAttribute("data-path")) ?? "";
    let key;
    const cardRoots = list.filter((c) => c.key.startsWith("card:"));
    if (cardRoots.length && cards.length && rng() < 0.6) {
      // A card to play, taken from the hand.
      const id = cards[Math.floor(rng() * cards.length)];
      key = `card:${id}`;
      await page.locator(`[data-testid=my-hand] button[data-testid=hand-card][data-card="${id}"]`).first().click();
      stats.handClicks++;
    } else if (regions.length && rng() < 0.7) {
      // A region, on the map or on its card in the list beside it.
      const r = regions[Math.floor(rng() * regions.length)];
      key = `region:${r}`;
      if (rng() < 0.5) await page.locator(`[data-testid=region][data-region="${r}"]`).click();
      else await page.locator(`[data-testid=region-target][data-region="${r}"]`).click();
      stats.mapClicks++;
    } else {
      const c = preferred(list, rng);
      key = c.key;
      await page.locator(`[data-testid=cg-moves] [data-testid=move-choice][data-key="${c.key}"]`).click();
    }
    const next = path ? `${path}/${key}` : key;
    await page.locator(`[data-testid=cg-moves] [data-testid=move-picker][data-path="${next}"]`).waitFor({ timeout: STEP_MS });
  }
  const path = await picker.getAttribute("data-path");
  const play = page.locator("[data-testid=cg-moves] [data-testid=move-play]");
  assert.ok(await play.isEnabled(), `the picker's move cannot be played: ${await page.getByTestId("move-problem").allInnerTexts()}`);
  await play.click();
  return path;
}

/** One move of `page`'s seat: an open question first, else a published move. False if it had none. */
async function playOne(page, rng, stats) {
  const before = await signature(page);
  const errorsBefore = await page.getByTestId("action-error").count();
  const core = page.getByTestId("core-prompt");
  if ((await core.count()) > 0) {
    const what = await answerPrompt(page, core, rng, stats);
    await settled(page, before, errorsBefore, what);
    return true;
  }
  if ((await page.getByTestId("cg-moves").count()) === 0) return false;
  const path = await playMove(page, rng, stats);
  const root = path.split("/")[0].replace(/:.*$/, "");
  stats.roots[root] = (stats.roots[root] ?? 0) + 1;
  await settled(page, before, errorsBefore, path);
  return true;
}

async function playRounds(pages, spectator, rng, stats) {
  const deadline = Date.now() + GAME_MS;
  let moves = 0;
  let shot = false;
  for (;;) {
    if ((await finished(pages[0])) || (await round(pages[0])) >= UNTIL_ROUND) return moves;
    assert.ok(Date.now() < deadline, `round ${UNTIL_ROUND} not reached within ${GAME_MS} ms (${moves} moves played)`);
    let acted = false;
    for (const p of pages) {
      if (!(await myTurn(p))) {
        if (await checkIdleHasNothing(p)) stats.idle++;
        continue;
      }
      if (!(await playOne(p, rng, stats))) continue;
      moves++;
      acted = true;
      if (moves % 25 === 0) {
        for (const q of [...pages, spectator]) await checkHandsHidden(q);
        await checkSpectator(spectator);
      }
      if (!shot && (await round(p)) >= 2 && (await board(p).getAttribute("data-phase")) === "5") {
        shot = true;
        await p.screenshot({ path: join(ARTIFACTS, "controle-global-round-2.png"), fullPage: true });
        await spectator.screenshot({ path: join(ARTIFACTS, "controle-global-spectator.png"), fullPage: true });
      }
    }
    if (!acted) await sleep(60);
    assert.ok(moves < 2000, "far more moves than a few rounds take");
  }
}

/** A spectator sees the world and the tables but no hand and no move. */
async function checkSpectator(page) {
  assert.equal(await board(page).getAttribute("data-you"), "-1");
  for (const sel of ["[data-testid=my-hand]", "[data-testid=hand]", "[data-testid=cg-moves]", "[data-testid=move-choice]",
    "[data-testid=region-target]", "[data-testid=core-prompt]"]) {
    assert.equal(await page.locator(sel).count(), 0, `a spectator sees ${sel}`);
  }
  assert.equal(await page.getByTestId("turn-banner").getAttribute("data-my-turn"), "false");
}

test("Contrôle Global for three organisations: private room by link, a spectator, several rounds played from the board", { timeout: GAME_MS + 120_000, skip }, async () => {
  const started = Date.now();
  const browser = await launch();
  const errors = [];
  try {
    const [A, B, C] = await hostAndGuests(browser, errors, 2);
    const pages = [A, B, C];
    for (const [i, p] of pages.entries()) {
      p.on("console", (m) => { if (m.type() === "error") errors.push(`${"ABC"[i]} console: ${m.text()}`); });
    }
    const link = await createPrivateRoom(A, "controle_global", 3);
    await joinReady(B, link, "Bruno");
    await joinReady(C, link, "Chloé");
    await A.locator("[data-testid=start-game]:not([disabled])").waitFor();
    await A.getByTestId("start-game").click();
    for (const p of pages) await board(p).waitFor({ timeout: 30_000 });
    const seats = [];
    for (const p of pages) seats.push(Number(await board(p).getAttribute("data-you")));
    assert.deepEqual([...seats].sort(), [0, 1, 2]);

    // The world: 3 regions per player plus 2, each on the map and in the list, joined by borders.
    for (const p of pages) {
      assert.equal(await p.locator("[data-testid=world] [data-testid=region]").count(), 11, "eleven regions on the map");
      assert.equal(await p.getByTestId("region-card").count(), 11, "eleven regions in the list");
      assert.ok((await p.getByTestId("region-border").count()) >= 10, "a connected world has at least n - 1 borders");
      assert.equal(await p.getByTestId("category-row").count(), 6, "six categories in the globalisation table");
    }

    // A late arrival watches by the watch-only link.
    const d = await newPage(browser, errors, "D", { width: 1100, height: 800 });
    const D = d.page;
    D.on("console", (m) => { if (m.type() === "error") errors.push(`D console: ${m.text()}`); });
    const watchLink = await A.getByTestId("watch-link").inputValue();
    await D.goto(watchLink, { timeout: 30_000 });
    await enterName(D, "Dora");
    await board(D).waitFor();
    await checkSpectator(D);

    const stats = { prompts: {}, roots: {}, handClicks: 0, mapClicks: 0, idle: 0 };
    const moves = await playRounds(pages, D, mulberry32(2026), stats);
    if (!(await finished(A))) assert.ok((await round(A)) >= UNTIL_ROUND, `round ${await round(A)}`);

    // Set-up and turns went through the published moves: factions, regions, draws, cards played,
    // investments or done, privatising; hand and map clicks were used.
    for (const root of ["faction", "region", "draw", "card"]) assert.ok(stats.roots[root] > 0, `no "${root}" move played: ${JSON.stringify(stats.roots)}`);
    assert.ok(stats.roots.done > 0 || stats.roots.invest > 0, `no investment step played: ${JSON.stringify(stats.roots)}`);
    assert.ok(stats.handClicks > 0 && stats.mapClicks > 0, `clicks on the board: ${stats.handClicks} cards, ${stats.mapClicks} regions`);
    assert.ok(stats.idle > 0, "idle seats were checked");
    // Each player holds cards, the others see only how many.
    for (const [i, p] of pages.entries()) {
      assert.ok((await p.locator("[data-testid=my-hand] [data-testid=hand-card]").count()) > 0, `seat ${seats[i]} holds no card`);
      await checkHandsHidden(p);
      for (const s of seats) {
        if (s === seats[i]) continue;
        // The count and the backs are read in one page tick, and again until a Diff still in flight
        // has landed: two separate reads could straddle one and disagree for a moment.
        let seen;
        for (const deadline = Date.now() + 5000; ;) {
          seen = await p.evaluate((seat) => {
            const el = document.querySelector(`[data-testid=hand-size-${seat}]`);
            return { size: Number(el?.getAttribute("data-count")), backs: el ? el.querySelectorAll("[data-testid=card-back]").length : -1 };
          }, s);
          if (seen.size === seen.backs || Date.now() > deadline) break;
          await p.waitForTimeout(100);
        }
        assert.equal(seen.backs, seen.size, `seat ${s}'s backs on seat ${seats[i]}'s page`);
      }
    }
    await checkSpectator(D);
    await A.screenshot({ path: join(ARTIFACTS, "controle-global-end.png"), fullPage: true });
    console.log(`Contrôle Global: ${moves} moves in ${((Date.now() - started) / 1000).toFixed(1)} s to round ${await round(A)}; ` +
      `moves ${JSON.stringify(stats.roots)}; questions ${JSON.stringify(stats.prompts)}; ${stats.handClicks} hand and ${stats.mapClicks} map clicks`);
    assert.deepEqual(errors, [], "errors in the pages");
    for (const p of [A, B, C, D]) await p.context().close();
  } finally {
    await browser.close();
  }
});
