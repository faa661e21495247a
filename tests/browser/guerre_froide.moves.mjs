// How a careful Guerre Froide player moves through the web client, shared by the game's own
// end-to-end test and the table tests that play it: the move on its desk, answers to the rules'
// questions in the generic panel, and what changes on the page with every accepted move. A move
// of several steps (a group's power, Nuclear Escalation) goes down the engine's published tree:
// the groups clicked are those the step highlights, which are exactly the picker's choices.
// `stats` (optional) counts what was played.
import assert from "node:assert/strict";
import { STEP_MS, noMoveInFlight, sleep } from "./support.mjs";

// plateau.v1.PromptKind, as the panel's data-kind.
const CHOOSE = "1", ORDER = "3", YES_NO = "4";
export const freshStats = () => ({ prompts: {}, agents: 0, recruits: 0, passes: 0, powers: {}, events: {}, treeSteps: 0 });
// How long a whole game may take in a browser test.
export const GF_GAME_MS = Number(process.env.PLATEAU_GF_GAME_TIMEOUT_MS ?? 8 * 60 * 1000);

/** The latest log entry's number: every accepted move writes at least one entry. */
export async function signature(page) {
  return page.evaluate(() => {
    let top = -1;
    for (const li of document.querySelectorAll("[data-testid=game-log] li[data-seq]")) top = Math.max(top, Number(li.getAttribute("data-seq")));
    const board = document.querySelector("[data-testid=gf-board]");
    return `${top}|${board?.getAttribute("data-phase")}|${board?.getAttribute("data-to-act")}`;
  });
}

/** Answers the open question in the generic panel. */
export async function answerPrompt(core, rng, stats = freshStats()) {
  const kind = await core.getAttribute("data-kind");
  stats.prompts[kind] = (stats.prompts[kind] ?? 0) + 1;
  if (kind === CHOOSE) {
    const options = core.locator("[data-testid^=prompt-option-]");
    const n = await options.count();
    assert.ok(n > 0, "a question without options");
    await options.nth(Math.floor(rng() * n)).click();
    await core.getByTestId("prompt-submit").click();
    return "choose";
  }
  if (kind === ORDER) {
    const items = core.getByTestId("prompt-order").locator("li");
    if ((await items.count()) > 1 && rng() < 0.5) {
      const first = await items.first().getAttribute("data-id");
      await core.getByTestId(`prompt-down-${first}`).click();
    }
    await core.getByTestId("prompt-submit").click();
    return "order";
  }
  if (kind === YES_NO) {
    await core.getByTestId(rng() < 0.5 ? "prompt-yes" : "prompt-no").click();
    return "yes_no";
  }
  assert.fail(`a question of kind ${kind} in Guerre Froide`);
}

/** The move of a careful player on its own desk. */
export async function playDesk(page, me, rng, stats = freshStats()) {
  const picks = page.locator("[data-testid=agent-choice]:not([disabled])");
  if ((await picks.count()) > 0) {
    const n = await picks.count();
    await picks.nth(Math.floor(rng() * n)).click();
    stats.agents++;
    return "agent";
  }
  const first = page.locator("[data-testid=choose-first]:not([disabled])");
  if ((await first.count()) > 0) {
    await first.nth(Math.floor(rng() * (await first.count()))).click();
    return "opens";
  }
  const recruit = page.getByTestId("recruit");
  if ((await recruit.count()) > 0) {
    // Now and then a ready group's power or a held event, through the board's own controls.
    if (rng() < 0.4 && (await usePower(page, rng, stats))) return "power";
    if (rng() < 0.5 && (await useEvent(page, rng, stats))) return "event";
    const mine = page.getByTestId(`influence-${me}`);
    const influence = Number(await mine.getAttribute("data-influence"));
    const stability = Number(await mine.getAttribute("data-stability"));
    const groups = await page.locator(`[data-testid=groups-${me}] [data-testid=group]`).count();
    const population = Number(await page.getByTestId("objective").getAttribute("data-population"));
    const build = groups === 0 || (groups < population && influence + 4 <= stability);
    if (build && (await recruit.isEnabled())) {
      await recruit.click();
      stats.recruits++;
      return "recruit";
    }
    await page.getByTestId("pass").click();
    stats.passes++;
    return "pass";
  }
  return "";
}

/**
 * Clicks a random one of the highlighted groups the step being made targets, after checking that
 * they are exactly the groups among the picker's choices (both read the published tree).
 */
async function clickTarget(page, rng, stats) {
  const targets = page.locator("[data-testid=group][data-target=true]");
  const lit = (await targets.evaluateAll((els) => els.map((e) => e.getAttribute("data-id")))).sort();
  const keys = await page.locator("[data-testid=move-choice]").evaluateAll((els) => els.map((e) => e.getAttribute("data-key")));
  // A step's keys are group ids, seats (numbers) or "none".
  assert.deepEqual(lit, keys.filter((k) => k !== "none" && !/^\d+$/.test(k)).sort(), "highlighted groups and the step's choices");
  if (lit.length === 0) return false;
  await targets.nth(Math.floor(rng() * lit.length)).click();
  stats.treeSteps++;
  return true;
}

/**
 * Clicks the file of a random one of the players the step targets (a political group's receiver),
 * after checking that they are exactly the seats among the picker's choices.
 */
async function clickSeat(page, rng, stats) {
  const files = page.getByTestId("seat-target");
  const seats = (await files.evaluateAll((els) => els.map((e) => e.getAttribute("data-seat")))).sort();
  const keys = await page.locator("[data-testid=move-choice]").evaluateAll((els) => els.map((e) => e.getAttribute("data-key")));
  assert.deepEqual(seats, keys.filter((k) => /^\d+$/.test(k)).sort(), "the players offered and the step's choices");
  if (seats.length === 0) return false;
  await files.nth(Math.floor(rng() * seats.length)).click();
  stats.treeSteps++;
  return true;
}

/** Waits until the move being made has gone on from `path` (a new step, or sent and closed). */
async function stepDone(page, path) {
  await page.waitForFunction((path) => {
    const mode = document.querySelector("[data-testid=pick-mode]");
    return !mode || mode.getAttribute("data-path") !== path || !!document.querySelector("[data-testid=move-play]");
  }, path, { timeout: STEP_MS });
}

/**
 * Finishes the move begun on the desk, step by step down the published tree: "none" where it is
 * offered (Nuclear Escalation on one group), else a highlighted group, else a player's file (a
 * political group's receiver), else one of the picker's choices, then Play at a leaf. A leaf reached by a click on the
 * board is sent at once. False if the move was called off.
 */
async function finishMove(page, rng, stats, kind) {
  // A choice with steps after it (its button's data-kind) opens the picker; a leaf is sent.
  if (kind === "step") await page.getByTestId("pick-mode").waitFor();
  for (let step = 0; step < 6; step++) {
    const mode = page.getByTestId("pick-mode");
    if ((await mode.count()) === 0) return true;
    const path = await mode.getAttribute("data-path");
    const play = page.getByTestId("move-play");
    if ((await play.count()) > 0) {
      await play.click();
      return true;
    }
    const none = page.locator("[data-testid=move-choice][data-key=none]");
    if ((await none.count()) > 0) await none.click();
    else if (!(await clickTarget(page, rng, stats)) && !(await clickSeat(page, rng, stats))) {
      const choices = page.getByTestId("move-choice");
      const n = await choices.count();
      if (n === 0) break;
      await choices.nth(Math.floor(rng() * n)).click();
    }
    await stepDone(page, path);
  }
  await page.getByTestId("move-cancel").click();
  return false;
}

/**
 * Activates one of the player's ready groups: Activate under it, then the move's steps (the
 * highlighted target, a political group's receiver). A Media group acts at once; its question
 * comes through the generic panel. False when no group of the player may act now.
 */
async function usePower(page, rng, stats) {
  const buttons = page.locator("[data-testid=activate]");
  const n = await buttons.count();
  if (n === 0) return false;
  const button = buttons.nth(Math.floor(rng() * n));
  const group = await button.getAttribute("data-group");
  const faction = await page.locator(`[data-testid=group][data-id="${group}"]`).first().getAttribute("data-faction");
  const kind = await button.getAttribute("data-kind");
  await button.click();
  if (!(await finishMove(page, rng, stats, kind))) return false;
  stats.powers[faction] = (stats.powers[faction] ?? 0) + 1;
  return true;
}

/** Uses an event the player holds, if one may be used now (Nuclear Escalation: on one group). */
async function useEvent(page, rng, stats) {
  const buttons = page.locator("[data-testid=use-event]:not([disabled])");
  const n = await buttons.count();
  if (n === 0) return false;
  const button = buttons.nth(Math.floor(rng() * n));
  const id = await button.getAttribute("data-objective");
  const kind = await button.getAttribute("data-kind");
  await button.click();
  if (!(await finishMove(page, rng, stats, kind))) return false;
  stats.events[id] = (stats.events[id] ?? 0) + 1;
  return true;
}

/**
 * The page's player makes one move (an answer to the open question, or a move on its desk) and
 * waits until the board shows it; "" when it had none to make, else what it played. A refusal
 * fails the test. `finished(page)` says the game is over (the page's own sign of the end).
 */
export async function playOneMove(page, me, rng, finished, stats) {
  const before = await signature(page);
  const errorsBefore = await page.getByTestId("action-error").count();
  const core = page.getByTestId("core-prompt");
  const what = (await core.count()) > 0 ? await answerPrompt(core, rng, stats) : await playDesk(page, me, rng, stats);
  if (!what) return "";
  const until = Date.now() + STEP_MS;
  for (;;) {
    if (((await signature(page)) !== before && (await noMoveInFlight(page))) || (await finished(page))) return what;
    if ((await page.getByTestId("action-error").count()) > errorsBefore) {
      assert.fail(`"${what}" was refused: ${await page.getByTestId("action-error").first().innerText()}`);
    }
    assert.ok(Date.now() < until, `"${what}" had no visible effect`);
    await sleep(30);
  }
}
