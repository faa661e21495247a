// End-to-end: two browsers play a whole private Globalissimo game through the web client, then
// walk the replay. The server must already be running and serving clients/web/dist; its URL
// comes from PLATEAU_URL (e.g. http://127.0.0.1:18080). playwright-core is taken from
// clients/web/node_modules (run `npm ci` there first); Chromium from CHROMIUM_PATH or
// /usr/bin/chromium. playwright-core launches it with a fresh temporary profile, and each
// player gets its own browser context (separate storage).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ARTIFACTS, BASE, SKIP, STEP_MS, createPrivateRoom, enterName, gameOver, globalissimoBoard, isMyTurn, joinReady, launch, mulberry32, newPage, selectOnMap, sleep, until as poll } from "./support.mjs";

const OVERALL_MS = Number(process.env.PLATEAU_E2E_TIMEOUT_MS ?? 10 * 60 * 1000);
// Countries big enough to be hit at the 110m resolution.
const MAP_GUESSES = ["076", "036", "156", "012", "398", "250", "724", "484", "124", "566"];

const shotQuestions = new Set();

// The capitals, from the game's own card data (a browser never receives them). Knowing them, the
// players cross the orange barriers and go on to the violet ones: with wrong capitals both pawns
// could stay in front of a first orange barrier all game and the map would never be asked.
const CAPITALS = new Map();
{
  const data = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "../../engine/games/globalissimo/data/countries.textproto"), "utf8");
  for (const block of data.split(/^countries \{$/m).slice(1)) {
    const name = /^ {2}name: "(.*)"$/m.exec(block)?.[1];
    const capital = /^ {2}capitals: "(.*)"$/m.exec(block)?.[1];
    if (name && capital) CAPITALS.set(name, capital);
  }
}
let wrongCapitalGiven = false;
// Issue 32: refused map answers, as the other players read them (the question's "Refused" chips
// and the log's "points at ...: wrong"): a country's name, never a map number.
const refusedMapWords = [];

async function readRefusals(page) {
  for (const chip of await page.locator("[data-testid=question-panel] .gl-wrong .chip").allInnerTexts()) {
    refusedMapWords.push(chip.trim());
  }
  for (const line of (await page.getByTestId("game-log").innerText()).split("\n")) {
    const m = /points at (.+): wrong/.exec(line);
    if (m) refusedMapWords.push(m[1].trim());
  }
}

/** Plays one move for the player whose turn it is on `page`. Returns a description. */
async function playMove(page, rng) {
  const question = page.getByTestId("question-panel");
  if (await question.count()) {
    const kind = await question.getAttribute("data-kind");
    if (!shotQuestions.has(kind)) {
      shotQuestions.add(kind);
      await question.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `question-${kind}.png`) });
    }
    if (kind === "orange") {
      // The first answer is wrong (the move stops in front of the barrier), the others right.
      const country = (await question.locator("h3 b").innerText()).replace(/^\P{L}+/u, "").trim();
      const capital = CAPITALS.get(country);
      assert.ok(capital, `no capital known for the question's country "${country}"`);
      const a = wrongCapitalGiven ? capital : (capital === "Lima" ? "Quito" : "Lima");
      wrongCapitalGiven = true;
      await page.getByTestId("capital-input").fill(a, { timeout: STEP_MS });
      await page.getByTestId("capital-submit").click({ timeout: STEP_MS });
      return `capital ${a}`;
    }
    await page.getByTestId("world-map").waitFor({ timeout: STEP_MS });
    await readRefusals(page);
    // While the question is open its answer stays secret: nothing on the map is marked as it.
    assert.equal(await page.locator("[data-testid=world-map] path.answer").count(), 0, "the open question's answer is shown");
    const start = Math.floor(rng() * MAP_GUESSES.length);
    const order = MAP_GUESSES.map((_, k) => MAP_GUESSES[(start + k) % MAP_GUESSES.length]);
    // A click only selects; the answer goes with Confirm.
    const id = await selectOnMap(page, order);
    // Had the player found the country, a name shown for the selection would be the question's.
    const leak = await page.evaluate(() => {
      const panel = document.querySelector("[data-testid=question-panel]");
      const name = (panel?.querySelector("h3 b")?.textContent ?? "").replace(/^\P{L}+/u, "").trim();
      const parts = [];
      for (const el of panel?.querySelectorAll(".gl-map, .gl-map-confirm") ?? []) {
        parts.push(el.innerText);
        for (const n of el.querySelectorAll("[aria-label], [title], title")) {
          parts.push(n.getAttribute("aria-label") ?? "", n.getAttribute("title") ?? "", n.tagName === "title" ? n.textContent : "");
        }
      }
      return name && parts.join(" ").includes(name) ? name : "";
    });
    assert.equal(leak, "", "the map names a country during the question");
    await page.getByTestId("map-confirm").click({ timeout: STEP_MS });
    return `map ${id}`;
  }
  const tiles = page.locator("[data-testid^=tile-pos-]:not([disabled])");
  const n = await tiles.count();
  assert.ok(n > 0, "it is my turn to place but no position can be chosen");
  const pos = 1 + Math.floor(rng() * n);
  await page.getByTestId(`tile-pos-${pos}`).click({ timeout: STEP_MS });
  const free = page.locator("button[data-testid=country-card][data-free=true]");
  const cards = await free.count();
  assert.ok(cards > 0, "no free country card to place a tile on");
  await free.nth(Math.floor(rng() * cards)).click({ timeout: STEP_MS });
  return `place position ${pos}`;
}

// Views name categories and cards by id; their names come from the game's static data, sent once
// with the game list. The board must show the names, never the ids.
async function namesShown(page) {
  const heading = (await page.locator("[data-testid=category] h3").innerText()).trim();
  const name = heading.split(" · ")[0];
  assert.ok(name && name !== "—" && !/^[a-z0-9_]+$/.test(name), `the category shows "${heading}", not its name`);
  const card = (await page.locator("[data-testid=country-card] .gl-name").first().innerText()).trim();
  assert.ok(card && !/^[A-Z]{3}$/.test(card), `a card shows "${card}", not its country's name`);
}

test("two players play a private Globalissimo game and replay it", { timeout: OVERALL_MS, skip: SKIP }, async () => {
  const deadline = Date.now() + OVERALL_MS - 30_000;
  const browser = await launch();
  const consoleErrors = [];
  try {
    const { ctx: ctxA, page: A } = await newPage(browser, consoleErrors, "A", { width: 1360, height: 1000 });
    const { ctx: ctxB, page: B } = await newPage(browser, consoleErrors, "B", { width: 1100, height: 900 });

    // --- A: name, then a private room with the default options (10 rounds).
    await A.goto(`${BASE}/#/`, { timeout: 30_000 });
    await enterName(A, "Alice");
    const link = await createPrivateRoom(A, "globalissimo", 2, async (p) => {
      assert.equal((await p.getByTestId("rounds-value").textContent())?.trim(), "10", "default rounds should be 10");
    });

    // --- B: opens the link, names itself, joins and gets ready.
    await joinReady(B, link, "Bob");

    // --- A sees Bob ready and starts.
    await A.locator("[data-testid=seat]", { hasText: "Bob" }).waitFor();
    await A.locator("[data-testid=start-game]:not([disabled])").waitFor();
    await A.getByTestId("start-game").click();
    for (const p of [A, B]) await p.getByTestId("gl-board").waitFor({ timeout: 30_000 });
    assert.match(await A.getByTestId("round-indicator").innerText(), /1\s*\/\s*10/);
    await namesShown(A);

    // --- C arrives late with the link: the game has started, so C watches instead.
    const { ctx: ctxC, page: C } = await newPage(browser, consoleErrors, "C", { width: 1000, height: 800 });
    await C.goto(link, { timeout: 30_000 });
    await enterName(C, "Carol");
    await C.getByTestId("invite").waitFor();
    assert.ok(await C.getByTestId("take-seat").isDisabled(), "no seat is offered once the game has started");
    await C.getByTestId("spectate").click();
    await C.getByTestId("gl-board").waitFor();
    await namesShown(C);
    assert.equal(await C.getByTestId("tile-picker").count(), 0, "a spectator has no tile picker");
    assert.equal(await C.locator("button[data-testid=country-card]").count(), 0, "a spectator cannot click cards");
    assert.equal(await C.getByTestId("resign").count(), 0, "a spectator cannot resign");
    // Resigning asks for a confirmation; A thinks better of it and plays on.
    await A.getByTestId("resign").click();
    await A.getByTestId("resign-confirm").waitFor();
    await A.getByTestId("resign-cancel").click();
    await A.getByTestId("resign").waitFor();
    await A.locator("[data-testid=room]", { hasText: "1 watching" }).waitFor();

    // --- Play the whole game through the UI.
    const rng = mulberry32(20240611);
    let moves = 0;
    let screenshotTaken = false;
    let settledSeen = false;
    let mapAsked = false;

    // --- The first placement reads the engine's published move: the seat whose turn it is not
    // has no clickable card and no position to pick (its view carries no move), the mover's
    // clickable cards and positions are exactly the "place" family's slots and positions, and
    // the placement built from them is accepted.
    await poll("somebody's turn to place at the start", async () => (await isMyTurn(A)) || (await isMyTurn(B)));
    const [mover, waiter] = (await isMyTurn(A)) ? [A, B] : [B, A];
    await mover.locator("[data-testid=display][data-move-slots]").waitFor({ timeout: STEP_MS });
    for (const p of [waiter, C]) {
      assert.equal(await p.locator("button[data-testid=country-card]").count(), 0, "a seat that may not place has a clickable card");
      assert.equal(await p.locator("[data-testid=display][data-move-slots]").count(), 0, "a seat that may not place was offered slots");
      assert.equal(await p.locator("[data-testid^=tile-pos-]:not([disabled])").count(), 0, "a seat that may not place has a position to pick");
    }
    const published = (await mover.getByTestId("display").getAttribute("data-move-slots")).split(",");
    const clickable = await mover.locator("button[data-testid=country-card]").evaluateAll((els) => els.map((e) => e.getAttribute("data-slot")));
    assert.deepEqual(clickable, published, "the clickable cards are not the published slots");
    const positions = (await mover.getByTestId("tile-picker").getAttribute("data-move-positions")).split(",");
    const enabled = await mover.locator("[data-testid^=tile-pos-]:not([disabled])").evaluateAll((els) => els.map((e) => e.textContent.trim()));
    assert.deepEqual(enabled, positions, "the positions offered are not the published ones");
    const slot = published[published.length - 1];
    await mover.getByTestId(`tile-pos-${positions[0]}`).click({ timeout: STEP_MS });
    await mover.locator(`button[data-testid=country-card][data-slot="${slot}"]`).click({ timeout: STEP_MS });
    for (const p of [mover, waiter]) {
      await p.locator(`[data-testid=country-card][data-slot="${slot}"][data-free=false]`).waitFor({ timeout: STEP_MS });
    }
    assert.equal(await mover.getByTestId("action-error").count(), 0, "the published placement was refused");
    moves++;
    while (!(await gameOver(A)) || !(await gameOver(B))) {
      assert.ok(Date.now() < deadline, `game not finished before the deadline (${moves} moves played)`);
      let acted = false;
      for (const p of [A, B]) {
        if (await gameOver(p)) continue;
        if (!(await isMyTurn(p))) continue;
        const before = await globalissimoBoard(p);
        const what = await playMove(p, rng);
        moves++;
        if (what.startsWith("map ")) mapAsked = true;
        // Wait for the move to be reflected on this page (or an error to be shown).
        const until = Date.now() + STEP_MS;
        for (;;) {
          if ((await globalissimoBoard(p)) !== before || (await gameOver(p))) break;
          if ((await p.getByTestId("action-error").count()) > 0) {
            const err = await p.getByTestId("action-error").innerText();
            assert.fail(`move "${what}" was refused: ${err}`);
          }
          assert.ok(Date.now() < until, `move "${what}" had no visible effect`);
          await sleep(50);
        }
        acted = true;
        // A settled map question's answer is on every board, not only the answering player's.
        const settled = p.locator("[data-testid=settled-answer][data-kind=map]").first();
        if (!settledSeen && (await settled.count()) > 0) {
          settledSeen = true;
          const mapId = await settled.getAttribute("data-map-id");
          for (const other of [A, B, C].filter((q) => q !== p)) {
            await other.locator(`[data-testid=settled-answer][data-map-id="${mapId}"]`).first().waitFor({ timeout: STEP_MS });
            assert.ok(await other.getByTestId("settled-answers").isVisible(), "the answers are not shown to everyone");
            await other.locator(`[data-testid=settled-map][data-map-id="${mapId}"]`).waitFor({ timeout: STEP_MS });
          }
        }
      }
      if (!screenshotTaken && moves >= 7) {
        await A.screenshot({ path: join(ARTIFACTS, "board-midgame.png"), fullPage: true });
        screenshotTaken = true;
        // B reloads mid-game: the stored token resumes the session and the board comes back
        // at the current version (JoinRoom + Resync).
        const before = await globalissimoBoard(A);
        await B.reload({ timeout: 30_000 });
        await B.getByTestId("gl-board").waitFor({ timeout: 30_000 });
        const until = Date.now() + STEP_MS;
        while ((await globalissimoBoard(B)) !== before) {
          assert.ok(Date.now() < until, "after a reload B's board does not match A's");
          await sleep(50);
        }
        // The spectator followed every move too.
        while ((await globalissimoBoard(C)) !== before) {
          assert.ok(Date.now() < until, "the spectator's board does not match the players'");
          await sleep(50);
        }
      }
      if (!acted) await sleep(100);
      assert.ok(moves < 400, "far more moves than a game can take");
    }
    assert.ok(moves >= 20, `a 10-round game for two takes at least 20 placements, saw ${moves}`);
    // Every map question asked settles by the end of its round at the latest, and the next move
    // (or the final board) shows its answer.
    assert.ok(mapAsked, "no map question was asked: neither pawn reached a violet barrier");
    if (!settledSeen) {
      await A.locator("[data-testid=settled-answer][data-kind=map]").first().waitFor({ timeout: STEP_MS });
      await C.locator("[data-testid=settled-answer][data-kind=map]").first().waitFor({ timeout: STEP_MS });
    }

    // --- Both see the final ranking.
    for (const p of [A, B]) {
      await p.getByTestId("ranking").waitFor();
      assert.equal(await p.getByTestId("ranking-row").count(), 2);
      const text = await p.getByTestId("ranking").innerText();
      assert.match(text, /Alice/);
      assert.match(text, /Bob/);
    }
    await A.getByTestId("game-over").scrollIntoViewIfNeeded();
    await A.screenshot({ path: join(ARTIFACTS, "final-ranking.png"), fullPage: true });

    // --- Replay viewer, opened from the game-over screen.
    await A.getByTestId("replay-link").click();
    await A.getByTestId("replay-viewer").waitFor();
    // The room was private: its replay link carries the key, and the viewer says so.
    const keyed = /[?&]t=[0-9a-f]{32}(&|$)/;
    assert.match(A.url(), keyed, `a private game's replay link should carry its token: ${A.url()}`);
    await A.getByTestId("replay-private").waitFor();
    const stepAttr = async () => {
      const s = A.getByTestId("replay-step");
      return { step: Number(await s.getAttribute("data-step")), total: Number(await s.getAttribute("data-total")) };
    };
    const waitStep = async (n) => {
      await A.locator(`[data-testid=replay-step][data-step="${n}"]`).waitFor();
      await A.getByTestId("gl-board").waitFor();
      return A.getByTestId("gl-board").innerHTML();
    };
    const start = await waitStep(0);
    const { total } = await stepAttr();
    assert.ok(total >= moves, `replay has ${total} steps, ${moves} moves were played`);
    await A.getByTestId("replay-next").click();
    const one = await waitStep(1);
    assert.notEqual(one, start, "the board must change between step 0 and step 1");
    assert.match(await A.getByTestId("replay-last-action").innerText(), /Move 1/);
    await A.getByTestId("replay-prev").click();
    assert.equal(await waitStep(0), start, "stepping back must show step 0 again");
    const mid = Math.floor(total / 2);
    await A.getByTestId("replay-step-input").fill(String(mid));
    await A.getByTestId("replay-step-input").press("Enter");
    const midHtml = await waitStep(mid);
    assert.notEqual(midHtml, start);
    await A.screenshot({ path: join(ARTIFACTS, "replay.png"), fullPage: true });
    assert.ok(A.url().includes(`step=${mid}`), `the replay URL should carry the step: ${A.url()}`);
    assert.match(A.url(), keyed, `stepping must keep the token in the replay URL: ${A.url()}`);
    // A step past the end is not silently ignored: the last one, with a note saying so.
    await A.getByTestId("replay-step-input").fill(String(total + 50));
    await A.getByTestId("replay-step-input").press("Enter");
    await waitStep(total);
    assert.match(await A.getByTestId("replay-bound").innerText(), new RegExp(`has ${total} moves`));
    await A.getByTestId("replay-first").click();
    await waitStep(0);
    assert.equal(await A.getByTestId("replay-bound").count(), 0);
    await A.getByTestId("replay-last").click();
    await waitStep(total);
    await A.locator("body").press("ArrowLeft");
    await waitStep(total - 1);
    await A.getByTestId("replay-first").click();
    assert.equal(await waitStep(0), start);
    // Every move in words beside the board: one row a move, plus one for the set-up when the game
    // wrote anything then; players by name, nothing left as protobuf text.
    const moveRows = A.locator("[data-testid=replay-moves] [data-testid=replay-move]");
    await moveRows.first().waitFor();
    const rowCount = await moveRows.count();
    assert.ok(rowCount === total || rowCount === total + 1, `the moves list has ${rowCount} rows for ${total} steps`);
    const movesText = await A.getByTestId("replay-moves").innerText();
    assert.match(movesText, /Alice|Bob/, "the moves should name the players");
    assert.ok(!movesText.includes("{"), `raw text in the moves list: ${movesText.slice(0, 300)}`);
    // A row takes the viewer to its step, as the step buttons do, and is marked as the current one.
    const third = moveRows.nth(2);
    const thirdStep = Number(await third.getAttribute("data-step"));
    assert.ok(thirdStep >= 1, `the third row is a move, not the set-up: step ${thirdStep}`);
    assert.match(await third.innerText(), /Alice|Bob/);
    await third.click();
    await waitStep(thirdStep);
    assert.equal((await stepAttr()).step, thirdStep);
    const currentRow = A.locator(`[data-testid=replay-move][data-step="${thirdStep}"]`);
    await A.locator(`[data-testid=replay-move][data-step="${thirdStep}"].current`).waitFor();
    assert.equal(await currentRow.getAttribute("aria-current"), "step");
    assert.equal(await A.locator("[data-testid=replay-move][aria-current=step]").count(), 1);
    assert.ok(A.url().includes(`step=${thirdStep}`), `a row should put its step into the URL: ${A.url()}`);
    // The move above the board is in words too.
    const lastAction = await A.getByTestId("replay-last-action").innerText();
    assert.match(lastAction, new RegExp(`Move ${thirdStep}: .*(Alice|Bob)`));
    assert.ok(!lastAction.includes("{"), `raw text as the last move: ${lastAction}`);
    await A.getByTestId("replay-first").click();
    assert.equal(await waitStep(0), start);
    // Another seat's point of view of the same step.
    await A.getByTestId("replay-seat").selectOption("1");
    await A.waitForFunction(() => location.hash.includes("seat=1"));
    await waitStep(0);
    // Its words are asked for again (a seat reads its own private entries): the list comes back.
    const seatRows = A.locator("[data-testid=replay-moves][data-seat=\"1\"] [data-testid=replay-move]");
    await seatRows.first().waitFor();
    assert.ok(await seatRows.count() >= total, "the moves list for seat 1");

    // The link shared with someone who did not play (the spectator): the replay is seen by Alice's
    // seat, and nothing on the page calls that seat "you"; it is marked as the viewpoint.
    await C.goto(A.url().replace("seat=1", "seat=0"), { timeout: 30_000 });
    await C.getByTestId("replay-viewer").waitFor();
    await C.locator("[data-testid=replay-moves][data-seat=\"0\"] [data-testid=replay-move]").first().waitFor();
    const marks = await C.getByTestId("self-mark").allInnerTexts();
    assert.ok(marks.length > 0 && marks.every((m) => /viewpoint/.test(m)), `the seat's marks: ${marks}`);
    const page = await C.getByTestId("replay-viewer").innerText();
    assert.ok(!/\(you\)|\byou\b/i.test(page.replace(/Your [a-z]+/g, "")), "a replay opened by a non-member says \"you\" of nobody");
    assert.equal(await C.locator(".txt-you").count(), 0, "no seat's words are marked as the reader's");

    assert.ok(refusedMapWords.length > 0, "no refused map answer was read");
    for (const w of refusedMapWords) {
      assert.match(w, /^\p{L}[\p{L} .'-]*$/u, `a refused map answer reads "${w}"`);
      assert.notEqual(w, "another country", "the log names the country pointed at");
    }
    assert.deepEqual(consoleErrors, [], "uncaught errors in the pages");
    await ctxA.close();
    await ctxB.close();
    await ctxC.close();
  } finally {
    await browser.close();
  }
});

test("one person plays Globalissimo against two normal bots from the lobby in one click", { timeout: OVERALL_MS, skip: SKIP }, async () => {
  const deadline = Date.now() + OVERALL_MS - 30_000;
  const browser = await launch();
  const consoleErrors = [];
  try {
    const { ctx, page: P } = await newPage(browser, consoleErrors, "P", { width: 1360, height: 1000 });
    await P.goto(`${BASE}/#/`, { timeout: 30_000 });
    await enterName(P, "Solène");
    // The bots think ahead (the normal level), chosen once in the lobby.
    await P.getByTestId("bot-level-normal").click();
    assert.equal(await P.getByTestId("bot-level-normal").getAttribute("aria-pressed"), "true");
    await P.getByTestId("play-bots-globalissimo").click();
    await P.getByTestId("gl-board").waitFor({ timeout: 30_000 });
    // Two seats are bots the server plays, shown as such.
    const bots = P.locator("[data-testid=seat][data-bot]");
    await bots.first().waitFor();
    assert.equal(await bots.count(), 2);
    assert.equal(await bots.first().getAttribute("data-bot"), "normal");
    assert.match(await bots.first().innerText(), /Bot 1/);
    const rng = mulberry32(4242);
    let moves = 0;
    let checkedAlerts = false;
    while (!(await gameOver(P))) {
      assert.ok(Date.now() < deadline, `game not finished before the deadline (${moves} moves played)`);
      if (!(await isMyTurn(P))) {
        await sleep(100);
        continue;
      }
      if (!checkedAlerts) {
        // Outside the board too: the tab's title and icon, and "Your tables" in the lobby.
        checkedAlerts = true;
        // Polled: the title and icon follow the banner in an effect, a frame later.
        await poll("the tab's title says it is Solène's turn", async () => /^● Your turn — Solène against bots · Plateau$/.test(await P.title()));
        await poll("the tab's icon is marked", async () => /circle/.test(await P.locator("link[rel=icon]").getAttribute("href")));
        await P.getByTestId("nav-lobby").click();
        await P.getByTestId("your-move").waitFor();
        await P.locator(".room-row", { has: P.getByTestId("your-move") }).getByText("Open").click();
        await P.getByTestId("gl-board").waitFor();
        continue;
      }
      const before = await globalissimoBoard(P);
      const what = await playMove(P, rng);
      moves++;
      const until = Date.now() + STEP_MS;
      while ((await globalissimoBoard(P)) === before && !(await gameOver(P))) {
        if ((await P.getByTestId("action-error").count()) > 0) {
          assert.fail(`move "${what}" was refused: ${await P.getByTestId("action-error").innerText()}`);
        }
        assert.ok(Date.now() < until, `move "${what}" had no visible effect`);
        await sleep(50);
      }
      assert.ok(moves < 400, "far more moves than a game can take");
    }
    await P.getByTestId("ranking").waitFor();
    assert.ok(checkedAlerts);
    await poll("the tab's title no longer says it is her turn", async () => !/Your turn/.test(await P.title()));
    assert.equal(await P.getByTestId("ranking-row").count(), 3);
    const ranking = await P.getByTestId("ranking").innerText();
    assert.match(ranking, /Solène/);
    assert.match(ranking, /Bot 1/);
    assert.match(ranking, /Bot 2/);
    assert.ok(moves >= 10, `ten rounds take at least ten of the person's moves, saw ${moves}`);
    await P.screenshot({ path: join(ARTIFACTS, "against-bots-ranking.png"), fullPage: true });
    // One click for a rematch: the bots agree, so a new game starts at once with the same seats.
    await P.getByTestId("rematch-ask").click();
    await P.locator("[data-testid=gl-board][data-round=\"1\"]").waitFor({ timeout: 30_000 });
    await P.getByTestId("game-over").waitFor({ state: "detached" });
    assert.equal(await P.locator("[data-testid=seat][data-bot]").count(), 2);
    assert.match(await P.getByTestId("round-indicator").innerText(), /1\s*\/\s*10/);
    assert.deepEqual(consoleErrors, [], "uncaught errors in the page");
    await ctx.close();
  } finally {
    await browser.close();
  }
});
