// End-to-end: Guerre Froide through the web client, three services in three browser contexts
// (a private room by link) and a spectator, played to a winner. Every move goes through the UI:
// the secret pick of Agent X on the agent cards, who opens the struggle, recruiting, passing,
// the groups' powers (Activate, the highlighted target, a political gift's receiver) and the
// events held (Nuclear Escalation's groups picked on the board) on the desk, and the questions
// the rules ask mid-phase (a Media card, the Analyst's order, a Double Agent, a target, the
// balance token, the Nobel Peace Prize, Space Race) in the generic prompt panel. Along the way no
// page ever shows another player's Agent X before the reveal, a seat that may not act has nothing
// to click, and the moves of several steps go down the engine's published tree by clicks.
//
// The server must already be running with Guerre Froide registered and serving clients/web/dist;
// its URL comes from PLATEAU_URL (see support.mjs). Screenshots go to tests/browser/artifacts/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ARTIFACTS, SKIP as skip, createPrivateRoom, enterName, hostAndGuests, joinReady, launch, mulberry32, newPage, sleep } from "./support.mjs";
import { freshStats, playOneMove } from "./guerre_froide.moves.mjs";

import { GF_GAME_MS as GAME_MS } from "./guerre_froide.moves.mjs";
// guerre_froide.Phase
const PLANNING = "2", STRUGGLE = "3";

async function finished(page) {
  return (await page.getByTestId("winners").count()) > 0;
}

async function myTurn(page) {
  return (await page.getByTestId("turn-banner").getAttribute("data-my-turn")) === "true";
}

/** No other player's Agent X shows before the Debriefing on `page` (seat `me`, -1 spectator). */
async function checkAgentsHidden(page, me) {
  const board = page.getByTestId("gf-board");
  const phase = await board.getAttribute("data-phase");
  if (phase !== PLANNING && phase !== STRUGGLE) return;
  const shown = await page.evaluate((me) => [...document.querySelectorAll("[data-testid=agent-x][data-seat], [data-testid=agent][data-status=\"3\"]")]
    .map((el) => Number(el.getAttribute("data-seat"))).filter((s) => s !== me), me);
  // A Double Agent's "see" shows the others' choices to its player during Planning.
  const seer = me >= 0 && (await page.locator(`[data-testid=player-${me}] [data-testid=sees-next]`).count()) > 0;
  if (!(phase === PLANNING && seer)) assert.deepEqual(shown, [], `seat ${me} sees another Agent X in phase ${phase}`);
}

// Every element of the board that makes a move: a seat that may not act has none of them.
const MOVE_ELEMENTS = ["[data-testid=activate]", "[data-testid=group][data-target=true]", "button[data-testid=group]",
  "button[data-testid=agent-choice]", "[data-testid=choose-first]", "[data-testid=use-event]", "[data-testid=pick-mode]",
  "[data-testid=move-choice]", "[data-testid=move-play]", "[data-testid=seat-target]", "[data-testid=recruit]:not([disabled])",
  "[data-testid=pass]:not([disabled])"].join(", ");

/**
 * On `page` (seat `me`, -1 a spectator), when the view says the seat may not act (the struggle is
 * another's turn, or its Agent X is chosen), nothing on the board makes a move. Read in one go, so
 * the answer and the elements come from the same view. Returns whether the seat was idle.
 */
async function checkIdleHasNothing(page, me) {
  const found = await page.evaluate(({ me, sel, STRUGGLE, PLANNING }) => {
    const board = document.querySelector("[data-testid=gf-board]");
    if (!board || document.querySelector("[data-testid=winners]")) return null;
    const phase = board.getAttribute("data-phase");
    const toAct = Number(board.getAttribute("data-to-act"));
    const chose = document.querySelector(`[data-testid=player-${me}] [data-testid=chose-agent]`)?.getAttribute("data-chosen") === "true";
    const idle = me < 0 || (phase === STRUGGLE && toAct >= 0 && toAct !== me) || (phase === PLANNING && chose);
    return idle ? [...board.querySelectorAll(sel)].map((el) => el.getAttribute("data-testid")) : null;
  }, { me, sel: MOVE_ELEMENTS, STRUGGLE, PLANNING });
  if (found === null) return false;
  assert.deepEqual(found, [], `seat ${me} may not act but is offered moves`);
  return true;
}

/**
 * Issue 32: on a desktop the question sits in the panel under the board, far below the banner
 * that announces it; the banner's button brings it into view.
 */
async function jumpToTheQuestion(page) {
  const prompt = page.getByTestId("core-prompt");
  await page.evaluate(() => window.scrollTo(0, 0));
  const before = await prompt.boundingBox();
  const height = page.viewportSize().height;
  await page.getByTestId("banner-jump").click();
  await page.waitForFunction((h) => {
    const r = document.querySelector("[data-testid=core-prompt]")?.getBoundingClientRect();
    return r && r.top >= 0 && r.top < h;
  }, height, { timeout: 5_000 });
  return before.y;
}

async function playToTheEnd(pages, seats, spectator, rng, stats) {
  const deadline = Date.now() + GAME_MS;
  let moves = 0;
  let shot = false;
  for (;;) {
    let done = true;
    for (const p of pages) done = (await finished(p)) && done;
    if (done) return moves;
    assert.ok(Date.now() < deadline, `the game did not end within ${GAME_MS} ms (${moves} moves played)`);
    let acted = false;
    for (let i = 0; i < pages.length; i++) {
      const p = pages[i];
      if ((await finished(p)) || !(await myTurn(p))) {
        if (await checkIdleHasNothing(p, seats[i])) stats.idle++;
        continue;
      }
      await checkAgentsHidden(p, seats[i]);
      if (stats.jumpedFrom === undefined && (await p.getByTestId("core-prompt").count()) > 0) {
        stats.jumpedFrom = await jumpToTheQuestion(p);
      }
      if (!(await playOneMove(p, seats[i], rng, finished, stats))) continue;
      moves++;
      acted = true;
      if (!shot && (await p.getByTestId("gf-board").getAttribute("data-phase")) === STRUGGLE && moves > 40) {
        shot = true;
        await p.screenshot({ path: join(ARTIFACTS, "guerre-froide-struggle.png"), fullPage: true });
        await spectator.screenshot({ path: join(ARTIFACTS, "guerre-froide-spectator.png"), fullPage: true });
        await checkAgentsHidden(spectator, -1);
        assert.equal(await spectator.getByTestId("recruit").count(), 0, "a spectator has no controls");
        assert.ok(await checkIdleHasNothing(spectator, -1));
        assert.equal(await spectator.getByTestId("core-prompt").count(), 0, "a spectator is asked nothing");
      }
    }
    if (!acted) await sleep(60);
    assert.ok(moves < 3000, "far more moves than a game of Guerre Froide takes");
  }
}

test("Guerre Froide for three services: private room by link, a spectator, played to a winner", { timeout: GAME_MS + 120_000, skip }, async () => {
  const started = Date.now();
  const browser = await launch();
  const errors = [];
  try {
    const [A, B, C] = await hostAndGuests(browser, errors, 2);
    const link = await createPrivateRoom(A, "guerre_froide", 3, (p) => p.getByTestId("option-cryptographer-1").click());
    await joinReady(B, link, "Boris");
    await joinReady(C, link, "Clara");
    await A.locator("[data-testid=start-game]:not([disabled])").waitFor();
    await A.getByTestId("start-game").click();
    const pages = [A, B, C];
    for (const p of pages) await p.getByTestId("gf-board").waitFor({ timeout: 30_000 });
    const seats = [];
    for (const p of pages) seats.push(Number(await p.getByTestId("gf-board").getAttribute("data-you")));
    assert.deepEqual([...seats].sort(), [0, 1, 2]);
    // Every player picks an agent first: the desk shows the agent cards.
    for (const p of pages) await p.getByTestId("agent-picker").waitFor();
    // The agent cards read like the variant's sheets: a box per service at the table in its colour
    // (red KGB, blue CIA, grey MI6), the player's own service marked.
    const SERVICE_BOX = ["kgb", "cia", "mi6"];
    for (let i = 0; i < 3; i++) {
      const keys = await pages[i].locator("[data-testid=agent-choice]").evaluateAll((cards) =>
        cards.map((c) => [...c.querySelectorAll("[data-box]")].map((b) => b.getAttribute("data-box")).join(",")));
      assert.ok(keys.some((k) => k.startsWith("kgb,cia,mi6")), `seat ${seats[i]}'s agent boxes: ${keys}`);
      const own = pages[i].locator(`[data-testid=agent-choice] [data-box=${SERVICE_BOX[seats[i]]}] small`).first();
      assert.match(await own.innerText(), /own service/i);
    }

    const d = await newPage(browser, errors, "D", { width: 1100, height: 800 });
    const D = d.page;
    // The spectator comes by the watch-only link (the room id and its watch code): straight to
    // the table, no seat offered.
    const watchLink = await A.getByTestId("watch-link").inputValue();
    assert.match(watchLink, /#\/watch\/[^/]+\/[^/]+$/);
    await D.goto(watchLink, { timeout: 30_000 });
    await enterName(D, "Dmitri");
    await D.getByTestId("gf-board").waitFor();
    assert.equal(await D.getByTestId("gf-board").getAttribute("data-you"), "-1");
    assert.equal(await D.getByTestId("agent-picker").count(), 0, "a spectator picks no agent");
    // The faction powers can be read with a tap, not only on hover.
    await D.locator("[data-testid=faction-powers] summary").click();
    const powers = D.locator("[data-testid=faction-powers] dd");
    assert.equal(await powers.count(), 4);
    for (let i = 0; i < 4; i++) {
      assert.ok(await powers.nth(i).isVisible());
      assert.ok((await powers.nth(i).innerText()).length > 15, "a power in words");
    }

    // Each service wears its seat's colour on the board, as in the seat list (MI6 was grey on
    // the board and green in the list).
    for (let s = 0; s < 3; s++) {
      const board = await D.locator(`[data-testid=player-${s}] .gf-emblem`).evaluate((el) => getComputedStyle(el).backgroundColor);
      const list = await D.locator("[data-testid=seats] [data-testid=seat]").nth(s).locator(".dot").evaluate((el) => getComputedStyle(el).backgroundColor);
      assert.equal(board, list, `seat ${s}'s colour on the board and in the seat list`);
    }

    const stats = { ...freshStats(), idle: 0 };
    const moves = await playToTheEnd(pages, seats, D, mulberry32(1962), stats);
    assert.ok(stats.jumpedFrom !== undefined, "a question was asked, and the banner's button brought it into view");
    await D.getByTestId("winners").waitFor();
    const winners = await D.getByTestId("winners").getAttribute("data-seats");
    assert.match(winners, /^\d(,\d)*$/);
    // The winners have the best score.
    const scores = [];
    for (let s = 0; s < 3; s++) scores.push(Number(await D.getByTestId(`score-${s}`).getAttribute("data-score")));
    for (const w of winners.split(",").map(Number)) assert.equal(scores[w], Math.max(...scores), `winner ${w} among ${scores}`);
    assert.ok(Math.max(...scores) >= 65 || (await D.getByTestId("objective-deck").getAttribute("data-count")) === "0",
      `the game ended at ${scores} VP`);
    // The last Debriefing stays on show: on each revealed card the box that applied is the
    // dominating service's (or nobody's), the same one on every card.
    const applied = await D.locator("[data-testid=revealed-card] [data-applies=true]").evaluateAll((boxes) =>
      [...new Set(boxes.map((b) => b.getAttribute("data-box")).filter((k) => k !== "any"))]);
    assert.ok(applied.length <= 1, `boxes applied in one Debriefing: ${applied}`);
    assert.ok(await D.locator("[data-testid=revealed-card] [data-applies=true]").count() > 0, "no box marked as applied");
    // The spectator opens the replay as the KGB saw it: the board names that seat's player, never
    // "you" (he did not play).
    await D.getByTestId("replay-link").click();
    await D.getByTestId("replay-viewer").waitFor();
    await D.getByTestId("replay-seat").selectOption("0");
    await D.waitForFunction(() => location.hash.includes("seat=0"));
    await D.getByTestId("replay-last").click();
    await D.locator("[data-testid=replay-viewer] [data-testid=gf-board][data-you=\"0\"]").waitFor();
    const replayText = await D.getByTestId("replay-viewer").innerText();
    // The board's own labels only: an event card's ability is printed to its holder ("Your Agent X
    // is not terminated"), on the table as in a replay, and shows whenever that card is in sight.
    const calledYou = replayText.match(/\(you\)|your headquarters|your agent x \(secret\)|only you see/i);
    assert.equal(calledYou?.[0], undefined, `the replay calls its viewpoint seat "you": …${calledYou ? replayText.slice(Math.max(0, calledYou.index - 80), calledYou.index + 80) : ""}…`);
    // (The board writes its labels in capitals.)
    assert.match(replayText, /(Ada|Boris|Clara)'s headquarters/i, "the viewpoint's headquarters by name");
    assert.match(await D.getByTestId("self-mark").first().innerText(), /viewpoint/);
    await A.getByTestId("winners").scrollIntoViewIfNeeded();
    await A.screenshot({ path: join(ARTIFACTS, "guerre-froide-end.png"), fullPage: true });
    assert.ok(stats.agents > 0 && stats.recruits > 0 && stats.passes > 0, JSON.stringify(stats));
    // Seats that could not act were seen with nothing to click, and the powers' targets were
    // clicked among the published tree's choices.
    assert.ok(stats.idle > 0, `no idle seat checked: ${JSON.stringify(stats)}`);
    assert.ok(stats.treeSteps > 0, `no target clicked down the published moves: ${JSON.stringify(stats)}`);
    // Every faction's power was used from the board at least once over a whole game.
    for (const faction of ["military", "economic", "media", "political"]) {
      assert.ok((stats.powers[faction] ?? 0) > 0, `no ${faction} power used: ${JSON.stringify(stats)}`);
    }
    console.log(`three services: ${moves} moves in ${((Date.now() - started) / 1000).toFixed(1)} s; ${JSON.stringify(stats)}; scores ${scores}, winners ${winners}`);
    assert.deepEqual(errors, [], "uncaught errors in the pages");
    for (const x of [A, B, C, D]) await x.context().close();
  } finally {
    await browser.close();
  }
});
