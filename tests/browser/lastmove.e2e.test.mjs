// End-to-end: the last move shown, in each game with a web board. Two players at a private table:
// when Ada moves, Bob's board marks the elements her move changed (class last-move, its words
// naming her in the title and aria-description), they stay through his turn, and they are gone
// once Bob has moved. Globalissimo also checks the "Since your last move" summary, and a
// spectator's marks (the latest move only).
//
// The server must already be running with the three games registered and serving clients/web/dist;
// its URL comes from PLATEAU_URL (see support.mjs). Screenshots go to tests/browser/artifacts/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  ARTIFACTS, SKIP as skip, STEP_MS, createPrivateRoom, enterName, hostAndGuests, isMyTurn, joinReady, launch, newPage,
  noMoveInFlight, sleep, until,
} from "./support.mjs";

// An element's test id with what tells it from its siblings, the same before and after a move.
function defineKey() {
  window.markKey = (el) => {
    const t = el.closest("[data-testid]");
    const around = el.closest("[data-seat]");
    return [t?.getAttribute("data-testid"), t?.getAttribute("data-slot"), t?.getAttribute("data-id"),
      t?.getAttribute("data-card"), around?.getAttribute("data-seat")].join("|");
  };
}

/** Every marked element of the page: its key, text and the mark's words. */
async function marks(page) {
  await page.evaluate(defineKey);
  return page.evaluate(() => [...document.querySelectorAll(".last-move")].map((el) => ({
    key: window.markKey(el), text: el.textContent ?? "", words: el.getAttribute("data-last-move") ?? "",
    // An SVG shape says it in its <title>.
    title: el.getAttribute("title") ?? el.querySelector(":scope > title")?.textContent ?? "",
    aria: el.getAttribute("aria-description") ?? "",
  })));
}

/** The text of every element that may wear a mark, by the same keys as marks(). */
async function markable(page) {
  await page.evaluate(defineKey);
  return page.evaluate(() => Object.fromEntries([...document.querySelectorAll("[data-testid]")]
    .map((el) => [window.markKey(el), el.textContent ?? ""])));
}

/** Waits until `page` marks something as changed by `name`'s move, and returns the marks. */
async function marksBy(page, name) {
  let found = [];
  await until(`a mark naming ${name}`, async () => {
    found = (await marks(page)).filter((m) => m.words.includes(name));
    return found.length > 0;
  });
  for (const m of found) {
    assert.match(m.words, new RegExp(`Changed by (${name}'s last move|the moves of .*${name})`));
    assert.ok(m.title.includes(m.words), `the mark's words are in its title: ${m.title}`);
    assert.equal(m.aria, m.words, "the mark's words are read out");
  }
  return found;
}

/** Every mark of `found` is on an element whose text `before` (keyed alike) differs or lacks. */
function onChangedElements(found, before) {
  const changed = found.filter((m) => !(m.key in before) || before[m.key] !== m.text);
  assert.ok(changed.length > 0, `no marked element changed: ${JSON.stringify(found.map((m) => m.key))}`);
}

async function noMarks(page) {
  await until("the marks gone", async () => (await page.locator(".last-move").count()) === 0);
}

async function twoPlayers(browser, errors, game, seats = 2, options = async () => {}) {
  const [A, B] = await hostAndGuests(browser, errors, 1);
  const link = await createPrivateRoom(A, game, seats, options);
  // The watch link carries the room's watch code, never its join code.
  const watchLink = await A.getByTestId("watch-link").inputValue();
  await joinReady(B, link, "Bob");
  await A.locator("[data-testid=start-game]:not([disabled])").waitFor();
  await A.getByTestId("start-game").click();
  return { A, B, link, watchLink };
}

async function waitAccepted(page, before, sig) {
  await until("the move accepted", async () => (await sig(page)) !== before && (await noMoveInFlight(page)));
}

// ----- Globalissimo -----

const glSig = (page) => page.evaluate(() => {
  const b = document.querySelector("[data-testid=gl-board]");
  return `${b?.getAttribute("data-phase")}|${b?.getAttribute("data-round")}|${b?.getAttribute("data-to-act")}|${document.querySelectorAll("[data-testid=country-card][data-free=false]").length}`;
});

/** Places a tile on the first free card; returns that card's slot. */
async function glPlace(page) {
  const before = await glSig(page);
  await page.getByTestId("tile-pos-1").click();
  const card = page.locator("button[data-testid=country-card][data-free=true]").first();
  const slot = await card.getAttribute("data-slot");
  await card.click();
  await waitAccepted(page, before, glSig);
  return slot;
}

test("Globalissimo: the other player's tile is marked until my move, with a summary on my turn", { timeout: 180_000, skip }, async () => {
  const browser = await launch();
  const errors = [];
  try {
    const { A, B, watchLink } = await twoPlayers(browser, errors, "globalissimo");
    for (const p of [A, B]) await p.getByTestId("gl-board").waitFor({ timeout: 30_000 });
    // Whoever places first is "first"; the other watches the mark appear.
    await until("someone's turn", async () => (await isMyTurn(A)) || (await isMyTurn(B)));
    const [first, second, firstName] = (await isMyTurn(A)) ? [A, B, "Ada"] : [B, A, "Bob"];
    const secondName = firstName === "Ada" ? "Bob" : "Ada";
    // A spectator, to see the latest move marked too.
    const { page: S } = await newPage(browser, errors, "S");
    await S.goto(watchLink, { timeout: 30_000 });
    await enterName(S, "Sam");
    await S.getByTestId("gl-board").waitFor();

    assert.equal(await second.locator(".last-move").count(), 0, "nothing is marked before anyone moved");
    const before = await markable(second);
    const slot = await glPlace(first);
    const found = await marksBy(second, firstName);
    onChangedElements(found, before);
    const card = second.locator(`[data-testid=country-card][data-slot="${slot}"]`);
    await card.and(second.locator(".last-move")).waitFor();
    assert.match(await card.getAttribute("title"), new RegExp(`Changed by ${firstName}'s last move`));
    // The mover's own board marks nothing of his own move.
    assert.equal(await first.locator(".last-move").count(), 0, "a player's own move is not marked");
    // The spectator sees the same card marked.
    await S.locator(`[data-testid=country-card][data-slot="${slot}"].last-move`).waitFor();

    // Second's turn: the summary says in words what the other did since.
    await until("the second player's turn", () => isMyTurn(second));
    const summary = second.getByTestId("since-last-move");
    await summary.waitFor();
    assert.match(await summary.innerText(), /Since your last move/);
    assert.match(await summary.innerText(), new RegExp(firstName));
    assert.equal(await first.getByTestId("since-last-move").count(), 0, "no summary while not one's turn");
    await second.screenshot({ path: join(ARTIFACTS, "lastmove-globalissimo.png"), fullPage: true });

    // Marks and summary stay until the second player's own move, then go.
    await sleep(300);
    assert.ok((await second.locator(".last-move").count()) > 0, "the marks stay through the turn");
    const slot2 = await glPlace(second);
    await noMarks(second);
    assert.equal(await second.getByTestId("since-last-move").count(), 0, "the summary goes with the move");
    // The first player now sees the second's tile; the spectator only the latest move.
    await marksBy(first, secondName);
    await first.locator(`[data-testid=country-card][data-slot="${slot2}"].last-move`).waitFor().catch(async () => {
      // The round may have been scored by that move: the cards are dealt again, all marked.
      assert.ok((await first.locator(".last-move").count()) > 0);
    });
    await until("the spectator follows the latest move", async () =>
      (await marks(S)).length > 0 && (await marks(S)).every((m) => m.words.includes(secondName)));
    assert.deepEqual(errors, [], "uncaught errors in the pages");
  } finally {
    await browser.close();
  }
});

// ----- Guerre Froide -----

test("Guerre Froide: the other service's Agent X choice is marked until my choice", { timeout: 180_000, skip }, async () => {
  const browser = await launch();
  const errors = [];
  try {
    const { A, B } = await twoPlayers(browser, errors, "guerre_froide");
    for (const p of [A, B]) await p.getByTestId("agent-picker").waitFor({ timeout: 30_000 });
    const seatA = Number(await A.getByTestId("gf-board").getAttribute("data-you"));
    const flag = B.locator(`[data-testid=player-${seatA}] [data-testid=chose-agent]`);
    assert.equal(await flag.getAttribute("data-chosen"), "false");
    const before = await markable(B);
    await A.locator("[data-testid=agent-choice]:not([disabled])").first().click();
    await A.locator(`[data-testid=player-${seatA}] [data-testid=chose-agent][data-chosen=true]`).waitFor();
    const found = await marksBy(B, "Ada");
    onChangedElements(found, before);
    await flag.and(B.locator(".last-move")).waitFor();
    assert.equal(await flag.getAttribute("data-chosen"), "true");
    assert.equal(await A.locator(".last-move").count(), 0, "a player's own move is not marked");
    // Bob still has to choose: the summary names Ada's move in the game's words.
    assert.match(await B.getByTestId("since-last-move").innerText(), /Ada/);
    await B.screenshot({ path: join(ARTIFACTS, "lastmove-guerre-froide.png"), fullPage: true });
    await B.locator("[data-testid=agent-choice]:not([disabled])").first().click();
    await noMarks(B);
    assert.equal(await B.getByTestId("since-last-move").count(), 0, "the summary goes with the move");
    assert.deepEqual(errors, [], "uncaught errors in the pages");
  } finally {
    await browser.close();
  }
});

// ----- LIMIT -----

const lmSig = (page) => page.evaluate(() => document.querySelector("[data-testid=limit-board]")?.getAttribute("data-sig") ?? "");

/** Answers `page`'s open decision the plainest way the board allows. */
async function lmAnswer(page) {
  const decision = page.getByTestId("decision").first();
  const kind = await decision.getAttribute("data-kind");
  const before = await lmSig(page);
  if (kind === "political_turn") {
    await decision.getByTestId("choice-pass").click();
  } else if ((await decision.getByTestId("core-prompt").count()) > 0) {
    const core = decision.getByTestId("core-prompt");
    const coreKind = await core.getAttribute("data-kind");
    const lo = Number(await core.getAttribute("data-min"));
    if (coreKind === "1") {
      const options = core.locator("[data-testid^=prompt-option-]");
      for (let i = 0; i < Math.max(1, lo); i++) await options.nth(i).click();
    } else if (coreKind === "2") {
      await core.getByTestId("prompt-number").fill(String(lo));
    } else if (coreKind === "4") {
      await core.getByTestId("prompt-no").click();
    }
    if (coreKind !== "4") await core.getByTestId("prompt-submit").click();
  } else {
    await decision.locator("[data-testid^=choice-]:not([disabled])").first().click();
  }
  await waitAccepted(page, before, lmSig);
}

const lmMyTurn = (page) => page.evaluate(() =>
  document.querySelector("[data-testid=turn-banner]")?.getAttribute("data-my-turn") === "true"
  && !!document.querySelector("[data-testid=decision]"));

test("LIMIT: what the other nation's move changed is marked until my move", { timeout: 240_000, skip }, async () => {
  const browser = await launch();
  const errors = [];
  try {
    const { A, B } = await twoPlayers(browser, errors, "limit", 2, (p) => p.getByTestId("option-first-game").check());
    for (const p of [A, B]) await p.getByTestId("limit-board").waitFor({ timeout: 30_000 });
    // Ada moves while she can; a move of hers that changes nothing Bob sees marks nothing, and
    // when she has nothing to do Bob moves (which clears his marks anyway).
    let found = [];
    for (let step = 0; step < 60 && found.length === 0; step++) {
      if (await lmMyTurn(A)) {
        const before = await markable(B);
        await lmAnswer(A);
        await sleep(150);
        found = (await marks(B)).filter((m) => m.words.includes("Ada"));
        if (found.length) {
          found = await marksBy(B, "Ada");
          onChangedElements(found, before);
        }
      } else if (await lmMyTurn(B)) {
        await lmAnswer(B);
        await noMarks(B);
      } else {
        await sleep(100);
      }
    }
    assert.ok(found.length > 0, "none of Ada's moves marked anything on Bob's board");
    // Both nations decide at once: a move of Ada's is still told from one of Bob's.
    for (const m of found) assert.equal(m.words, "Changed by Ada's last move");
    assert.equal(await A.locator(".last-move[data-last-move*=Ada]").count(), 0, "a player's own move is not marked");
    await B.screenshot({ path: join(ARTIFACTS, "lastmove-limit.png"), fullPage: true });
    // Bob's next move clears them (Ada plays on until Bob has one to make).
    for (const end = Date.now() + 60_000; !(await lmMyTurn(B));) {
      assert.ok(Date.now() < end, "Bob never had a move to make");
      if (await lmMyTurn(A)) await lmAnswer(A);
      else await sleep(100);
    }
    assert.ok((await B.locator(".last-move").count()) > 0, "the marks stay until Bob moves");
    await lmAnswer(B);
    await noMarks(B);
    assert.deepEqual(errors, [], "uncaught errors in the pages");
  } finally {
    await browser.close();
  }
});
