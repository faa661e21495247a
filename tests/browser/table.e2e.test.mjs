// End-to-end: the table when a player stops playing, in two-player Guerre Froide rooms.
//   - A turn timer runs out: Boris never moves, Ada sees his clock count down, then a bot playing
//     for him; Boris sees that a bot plays for him and takes his seat back.
//   - A leaver hands his seat to a bot: Boris leaves mid-game through the Leave dialog, Ada sees
//     the bot playing for him and plays the game to its final ranking against it.
//   - A leaver keeps his seat: Ada may hand it to a bot or claim the win, and claims it.
//   - A player closes his tab mid-game: Ada sees him offline, may hand his seat to a bot only once
//     the grace has passed (the server runs with a 5 s grace for this file), and the bot plays on.
// The presets the room form offers are fitted to real games (45 s per move at the least for Guerre
// Froide), too slow here: the timed room is created with a 10 s timer (the protocol's minimum) by
// the protocol itself, from a second connection of Ada's own session, as another tab of hers would
// be, and her page then opens it by its link. Needs PLATEAU_URL, as the other tests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ARTIFACTS, STEP_MS, SKIP as skip, createPrivateRoom, hostAndGuests, isMyTurn, joinReady, launch, mulberry32, sleep, until, webRequire } from "./support.mjs";
import { GF_GAME_MS as GAME_MS, playOneMove } from "./guerre_froide.moves.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const protobuf = webRequire("protobufjs");
// plateau.v1.TimerMode
const TIMER_PER_MOVE = 1;

// The wire protocol, parsed from the repository's .proto files as the web client does
// (options.proto left out: it only steers the server's diffs).
const root = new protobuf.Root();
for (const f of ["diff", "table", "protocol"]) {
  protobuf.parse(readFileSync(join(here, `../../proto/plateau/v1/${f}.proto`), "utf8"), root, { keepCase: true });
}
root.resolveAll();
const ClientMessage = root.lookupType("plateau.v1.ClientMessage");
const ServerMessage = root.lookupType("plateau.v1.ServerMessage");

/**
 * A second connection of `page`'s player, opened inside the page (so it reaches the server
 * exactly as the client does) and said Hello with the page's own token. `send(body)` resolves
 * with the decoded answer to that request, and fails on an Error.
 */
async function rawSession(page) {
  await page.evaluate(() => new Promise((resolve, reject) => {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`);
    ws.binaryType = "arraybuffer";
    window.__raw = { ws, inbox: [] };
    ws.onmessage = (e) => window.__raw.inbox.push([...new Uint8Array(e.data)]);
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error("the raw WebSocket did not open"));
  }));
  let nextId = 1;
  const send = async (body) => {
    const id = nextId++;
    const bytes = ClientMessage.encode(ClientMessage.fromObject({ request_id: id, ...body })).finish();
    await page.evaluate((b) => window.__raw.ws.send(new Uint8Array(b)), [...bytes]);
    const until = Date.now() + STEP_MS;
    for (;;) {
      // Pushes and other answers are not this test's business.
      for (const frame of await page.evaluate(() => window.__raw.inbox.splice(0))) {
        const m = ServerMessage.toObject(ServerMessage.decode(Uint8Array.from(frame)), { longs: Number, enums: Number, oneofs: true });
        if (Number(m.request_id) !== id) continue;
        if (m.body === "error") throw new Error(`${Object.keys(body)[0]} refused: ${m.error.code} ${m.error.reason}`);
        return m;
      }
      assert.ok(Date.now() < until, `no answer to ${Object.keys(body)[0]}`);
      await sleep(50);
    }
  };
  const token = await page.evaluate(() => localStorage.getItem("plateau.token"));
  assert.ok(token, "the page has a session token");
  await send({ hello: { token, protocol_version: 1 } });
  return { send, close: () => page.evaluate(() => window.__raw.ws.close()) };
}

async function finished(page) {
  return (await page.getByTestId("ranking").count()) > 0;
}

/** One move of the page's player if it is their turn, waited for until the board shows it. */
async function moveIfMyTurn(page, me, rng) {
  if ((await finished(page)) || !(await isMyTurn(page))) return false;
  return (await playOneMove(page, me, rng, finished)) !== "";
}

/** `page`'s player keeps playing (in a timed room their own clock runs too) until `check()` holds. */
async function playUntil(page, me, rng, what, check, ms = 60_000) {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    assert.ok(Date.now() < end, `timed out: ${what}`);
    if (!(await moveIfMyTurn(page, me, rng))) await sleep(50);
  }
}

/** Seconds shown by a clock ("⏱ 0:07"). */
function clockSeconds(text) {
  const m = /(\d+):(\d\d)/.exec(text);
  assert.ok(m, `a clock reads "${text}"`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** Ada (already named on A) and Boris at a started game in the room of `link`; their seats. */
async function startTwo(A, B, link) {
  await joinReady(B, link, "Boris");
  await A.locator("[data-testid=seat]", { hasText: "Boris" }).waitFor();
  await A.locator("[data-testid=start-game]:not([disabled])").waitFor();
  await A.getByTestId("start-game").click();
  for (const p of [A, B]) await p.getByTestId("gf-board").waitFor({ timeout: 30_000 });
  const seats = [];
  for (const p of [A, B]) seats.push(Number(await p.getByTestId("gf-board").getAttribute("data-you")));
  assert.deepEqual([...seats].sort(), [0, 1]);
  return seats;
}

test("a timer running out and a bot playing", { timeout: 5 * 60 * 1000, skip }, async () => {
  const browser = await launch();
  const errors = [];
  try {
    const [A, B] = await hostAndGuests(browser, errors, 1);

    // The room form offers no timer and the game's presets, in words.
    await A.getByTestId("create-room-guerre_froide").click();
    await A.getByTestId("create-room-modal").waitFor();
    const choices = await A.locator("[data-testid=timer-select] option").allTextContents();
    assert.equal(choices[0], "No timer");
    assert.ok(choices.some((c) => /^Casual — \d+ s per move$/.test(c)), `presets offered: ${choices}`);
    assert.ok(choices.some((c) => /^Clocked — \d+ min( \+ \d+ s per move| each)$/.test(c)), `presets offered: ${choices}`);
    await A.getByTestId("timer-select").selectOption({ label: choices.find((c) => c.startsWith("Casual")) });
    assert.match(await A.getByTestId("timer-hint").textContent(), /after 3 in a row a bot takes it over/);
    // The host chooses after how many timeouts in a row a bot takes a seat over.
    await A.getByTestId("abandon-select").selectOption("1");
    assert.match(await A.getByTestId("timer-hint").textContent(), /after 1 in a row a bot takes it over/);
    await A.getByTestId("abandon-select").selectOption("0");
    assert.doesNotMatch(await A.getByTestId("timer-hint").textContent(), /bot/);
    await A.getByRole("button", { name: "Cancel" }).click();
    await A.getByTestId("create-room-modal").waitFor({ state: "detached" });

    // A 10 s timer, abandoned after one timeout, through the protocol; Ada's page then opens the
    // room by its link while that connection still holds her seat.
    const raw = await rawSession(A);
    const created = await raw.send({
      create_room: {
        game: "guerre_froide", seats: 2, is_private: true, title: "Ada's quick table",
        timer: { mode: TIMER_PER_MOVE, per_move_seconds: 10, timeouts_to_abandon: 1 },
      },
    });
    const code = created.room.join_code;
    assert.ok(code, "a private room has a join code");
    await A.evaluate((c) => { location.hash = `#/join/${c}`; }, code);
    const link = await A.getByTestId("share-link").inputValue();
    await raw.close();
    assert.match(await A.getByTestId("room-timer").textContent(), /10 s per move, a bot after 1 timeout in a row/);

    const [ada] = await startTwo(A, B, link);
    const rng = mulberry32(1947);
    const boris = A.locator("[data-testid=seat]", { hasText: "Boris" });

    // Both pick an agent first: Boris's clock runs on Ada's page, counting down, urgent under 10 s.
    const borisClock = boris.locator("[data-testid=seat-clock][data-running=true]");
    await borisClock.waitFor();
    const first = clockSeconds(await borisClock.textContent());
    assert.ok(first <= 10, `Boris's clock starts at ${first} s`);
    await boris.locator("[data-testid=seat-clock].urgent").waitFor();
    // Watched before Ada moves: a slow move could outlast his 10 s, and a new clock would start.
    let later = first;
    await until(`Boris's clock counts down from ${first} s`, async () => {
      const text = await borisClock.textContent({ timeout: 1000 }).catch(() => null);
      if (text !== null) later = clockSeconds(text);
      return later < first;
    }, 5000);
    await moveIfMyTurn(A, ada, rng);
    await A.screenshot({ path: join(ARTIFACTS, "table-clock.png"), fullPage: true });

    // Boris never moves: once his time runs out, a bot plays for him.
    const standIn = boris.getByTestId("stand-in");
    await playUntil(A, ada, rng, "a bot plays for Boris", async () => (await standIn.count()) > 0, 45_000);
    assert.match(await standIn.textContent(), /Bot plays for Boris/);
    assert.equal(await A.getByTestId("stand-in-banner").count(), 0, "Ada's own seat has no bot");
    await A.screenshot({ path: join(ARTIFACTS, "table-stand-in.png"), fullPage: true });

    // Boris's page says so, and he takes his seat back.
    await B.getByTestId("stand-in-banner").waitFor();
    await B.getByTestId("take-back").click();
    await B.getByTestId("stand-in-banner").waitFor({ state: "detached" });
    await playUntil(A, ada, rng, "Boris plays his seat again", async () => (await standIn.count()) === 0, STEP_MS);

    assert.deepEqual(errors, [], "uncaught errors in the pages");
    for (const x of [A, B]) await x.context().close();
  } finally {
    await browser.close();
  }
});

test("a leaver replaced by a bot and the game finishing", { timeout: GAME_MS + 120_000, skip }, async () => {
  const browser = await launch();
  const errors = [];
  try {
    const [A, B] = await hostAndGuests(browser, errors, 1);
    const link = await createPrivateRoom(A, "guerre_froide", 2);
    assert.equal(await A.getByTestId("room-timer").count(), 0, "a room without a timer says none");
    const [ada] = await startTwo(A, B, link);

    // Leaving a game asks what becomes of the seat; Cancel stays at the table.
    await B.getByTestId("leave-room").click();
    const dialog = B.getByTestId("leave-dialog");
    await dialog.waitFor();
    for (const id of ["leave-keep", "leave-bot", "leave-concede", "leave-cancel"]) await dialog.getByTestId(id).waitFor();
    await B.screenshot({ path: join(ARTIFACTS, "table-leave-dialog.png") });
    await dialog.getByTestId("leave-cancel").click();
    await dialog.waitFor({ state: "detached" });
    assert.equal(await B.getByTestId("gf-board").count(), 1, "Boris is still at the table");

    await B.getByTestId("leave-room").click();
    await B.getByTestId("leave-bot").click();
    await B.getByTestId("create-room-guerre_froide").waitFor();

    // Ada sees Boris gone and a bot playing his seat: no second bot, but she could still claim.
    const boris = A.locator("[data-testid=seat]", { hasText: "Boris" });
    await boris.getByTestId("stand-in").waitFor();
    assert.match(await boris.getByTestId("stand-in").textContent(), /Bot plays for Boris/);
    assert.equal((await boris.getByTestId("presence").textContent()).trim().toLowerCase(), "left");
    assert.equal(await A.locator("[data-testid^=replace-bot-]").count(), 0);
    assert.equal(await A.locator("[data-testid^=claim-win-]").count(), 1);

    // Ada plays against the bot to the end.
    const started = Date.now();
    await playUntil(A, ada, mulberry32(1989), "the final ranking", () => finished(A), GAME_MS);
    assert.equal(await A.getByTestId("ranking-row").count(), 2);
    const ranking = await A.getByTestId("ranking").textContent();
    assert.match(ranking, /Ada/);
    assert.match(ranking, /Boris/);
    await A.getByTestId("game-over").scrollIntoViewIfNeeded();
    await A.screenshot({ path: join(ARTIFACTS, "table-bot-finished.png"), fullPage: true });
    console.log(`against Boris's bot: finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    assert.deepEqual(errors, [], "uncaught errors in the pages");
    for (const x of [A, B]) await x.context().close();
  } finally {
    await browser.close();
  }
});

test("a leaver keeping his seat, and the win claimed", { timeout: 3 * 60 * 1000, skip }, async () => {
  const browser = await launch();
  const errors = [];
  try {
    const [A, B] = await hostAndGuests(browser, errors, 1);
    const link = await createPrivateRoom(A, "guerre_froide", 2);
    const [, borisSeat] = await startTwo(A, B, link);

    await B.getByTestId("leave-room").click();
    await B.getByTestId("leave-keep").click();
    await B.getByTestId("create-room-guerre_froide").waitFor();

    // A seat left on purpose may be replaced at once: Ada is offered a bot or the win.
    const boris = A.locator("[data-testid=seat]", { hasText: "Boris" });
    await boris.getByTestId(`replace-bot-${borisSeat}`).waitFor();
    assert.equal((await boris.getByTestId("presence").textContent()).trim().toLowerCase(), "left");
    // Claiming asks first.
    await boris.getByTestId(`claim-win-${borisSeat}`).click();
    await boris.getByTestId(`claim-win-cancel-${borisSeat}`).click();
    await boris.getByTestId(`claim-win-${borisSeat}`).click();
    await boris.getByTestId(`claim-win-confirm-${borisSeat}`).click();

    await A.getByTestId("ranking").waitFor();
    const winner = A.locator("[data-testid=ranking-row].winner");
    assert.equal(await winner.count(), 1);
    assert.match(await winner.textContent(), /Ada/);
    await A.screenshot({ path: join(ARTIFACTS, "table-claimed.png"), fullPage: true });

    assert.deepEqual(errors, [], "uncaught errors in the pages");
    for (const x of [A, B]) await x.context().close();
  } finally {
    await browser.close();
  }
});

test("a player closing his tab mid-game: offline, then handed to a bot after the grace", { timeout: 4 * 60 * 1000, skip }, async () => {
  const browser = await launch();
  const errors = [];
  try {
    const [A, B] = await hostAndGuests(browser, errors, 1);
    const link = await createPrivateRoom(A, "guerre_froide", 2);
    const [ada, borisSeat] = await startTwo(A, B, link);
    const grace = Number(await A.getByTestId("room").getAttribute("data-offline-grace"));
    assert.ok(grace > 0 && grace <= 30, `this test's server runs with a short grace, not ${grace} s`);

    // No Leave, no goodbye: the tab is gone.
    // Timed from the close: the server cannot see him offline earlier, and Ada's page counts
    // the grace from the update, which may reach this test later on a loaded machine.
    const offlineAt = Date.now();
    await B.context().close();
    const boris = A.locator("[data-testid=seat]", { hasText: "Boris" });
    await A.waitForFunction(() => [...document.querySelectorAll("[data-testid=seat]")]
      .some((s) => s.textContent.includes("Boris") && /offline/.test(s.querySelector("[data-testid=presence]")?.textContent ?? "")));
    // Not before the grace: he may only have lost his connection for a moment.
    assert.equal(await boris.getByTestId(`replace-bot-${borisSeat}`).count(), 0, "replaceable at once");
    await boris.getByTestId(`replace-bot-${borisSeat}`).waitFor({ timeout: (grace + 20) * 1000 });
    assert.ok(Date.now() - offlineAt >= (grace - 1) * 1000, "replaceable before the grace");
    await boris.getByTestId(`replace-bot-${borisSeat}`).click();
    await boris.getByTestId("stand-in").waitFor();
    assert.match(await boris.getByTestId("stand-in").textContent(), /Bot plays for Boris/);

    // The bot plays Boris's seat: Ada plays until the game has gone on to its second turn.
    await playUntil(A, ada, mulberry32(1991), "a second turn, the bot playing for Boris", async () =>
      (await finished(A)) || Number(await A.getByTestId("gf-board").getAttribute("data-turn")) >= 2, 120_000);

    assert.deepEqual(errors, [], "uncaught errors in the pages");
    await A.context().close();
  } finally {
    await browser.close();
  }
});
