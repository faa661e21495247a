// End-to-end on three nodes behind HAProxy (tests/browser/cluster_run.sh), in Chromium:
// - a private room opened on one node, its code typed in the lobby of a page of another node:
//   the player lands in the room, sits, and the game starts for both;
// - two players in a private Globalissimo room have played a few tiles when the node that runs
//   their room is killed with SIGKILL: both pages say they are reconnecting, and the player whose
//   turn it is moves meanwhile; the pages come back by themselves, the room now run by another
//   node, and that move is taken and shown on both tables (so none before it was lost); the game
//   goes on. The time from the kill to that move taken is printed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ARTIFACTS, BASE, STEP_MS, createPrivateRoom, enterName, globalissimoBoard, isMyTurn, launch, newPage, noMoveInFlight, playMove, twoPlayerGame, until } from "./support.mjs";

const CLUSTER = process.env.PLATEAU_CLUSTER ?? "";
const PORTS = (process.env.PLATEAU_NODE_PORTS ?? "").split(" ").filter(Boolean).map(Number);
const SKIP = (!BASE || !CLUSTER || PORTS.length < 2) && "not on a cluster (tests/browser/cluster_run.sh)";
const OVERALL_MS = Number(process.env.PLATEAU_E2E_TIMEOUT_MS ?? 5 * 60 * 1000);

/** The node's rooms open, from its /metrics (reachable from loopback): -1 when it is down. */
async function roomsOn(port) {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    return Number(text.match(/^plateau_rooms (\d+)$/m)?.[1] ?? -1);
  } catch {
    return -1;
  }
}

/** Whoever's turn it is moves; returns the board as it was before. */
async function moveOnce(A, B, ms = STEP_MS) {
  let mover = null;
  await until("someone's turn", async () => {
    mover = (await isMyTurn(A)) ? A : (await isMyTurn(B)) ? B : null;
    return mover !== null;
  }, ms);
  const before = await globalissimoBoard(A);
  await playMove(mover);
  return { mover, before };
}

/** Both tables show the same board, other than `before`, and `mover`'s move was answered. */
async function bothShowMove(A, B, { mover, before }, ms = STEP_MS) {
  await until("both tables show the move", async () =>
    (await globalissimoBoard(A)) !== before && (await globalissimoBoard(A)) === (await globalissimoBoard(B)) &&
    (await noMoveInFlight(mover)), ms);
}

/** Whoever's turn it is moves; returns once both tables show it. */
async function playOne(A, B, ms = STEP_MS) {
  await bothShowMove(A, B, await moveOnce(A, B, ms), ms);
}

test("a code typed on another node's page finds the room", { timeout: OVERALL_MS, skip: SKIP }, async () => {
  const browser = await launch();
  const errors = [];
  try {
    // Each page on a node of its own, past the front: the room is on the first node, the code
    // is typed on the second.
    const { page: A } = await newPage(browser, errors, "A");
    const { page: B } = await newPage(browser, errors, "B", { width: 1280, height: 900 });
    await A.goto(`http://127.0.0.1:${PORTS[0]}/#/`, { timeout: 30_000 });
    await enterName(A, "Ada");
    await createPrivateRoom(A, "globalissimo", 2);
    const code = (await A.getByTestId("join-code").innerText()).trim();
    assert.match(code, /^[A-Z0-9]+$/);
    await B.goto(`http://127.0.0.1:${PORTS[1]}/#/`, { timeout: 30_000 });
    await enterName(B, "Bob");
    await B.getByTestId("join-code-input").fill(code);
    await B.getByTestId("join-code-input").press("Enter");
    await B.getByTestId("take-seat").click({ timeout: 30_000 });
    await B.getByTestId("ready-toggle").click();
    await B.locator("[data-testid=ready-toggle][aria-pressed=true]").waitFor();
    assert.match(await B.evaluate(() => location.hash), /^#\/join\/r[0-9a-f]+\//, "the page names the room now");
    await A.locator("[data-testid=start-game]:not([disabled])").waitFor();
    await A.getByTestId("start-game").click();
    for (const p of [A, B]) await p.getByTestId("gl-board").waitFor({ timeout: 30_000 });
    await playOne(A, B);
    assert.equal(await roomsOn(PORTS[1]), 0, "the second node runs no room: it carries Bob to the first");
    await B.screenshot({ path: join(ARTIFACTS, "cluster-code-on-another-node.png") });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test("two players whose node is killed play on on another node", { timeout: OVERALL_MS, skip: SKIP }, async () => {
  const browser = await launch();
  const errors = [];
  try {
    const before = await Promise.all(PORTS.map(roomsOn));
    const { A, B } = await twoPlayerGame(browser, errors, "globalissimo", "gl-board");
    await playOne(A, B);
    await playOne(A, B);

    // The node running the room: the one with a room more than before.
    const counts = await Promise.all(PORTS.map(roomsOn));
    const grew = counts.map((n, i) => n - before[i]);
    const owner = grew.findIndex((n) => n === 1);
    assert.ok(owner >= 0 && grew.filter((n) => n !== 0).length === 1, `one node runs the room: ${before} -> ${counts}`);
    const pid = Number(readFileSync(join(CLUSTER, `node-${owner + 1}.pid`), "utf8"));
    const table = await globalissimoBoard(A);
    assert.equal(await globalissimoBoard(B), table);

    const killedAt = Date.now();
    process.kill(pid, "SIGKILL");
    await until("a page says it is reconnecting", async () =>
      (await A.getByTestId("reconnecting").count()) + (await B.getByTestId("reconnecting").count()) > 0, 10_000);
    await A.screenshot({ path: join(ARTIFACTS, "node-killed-reconnecting.png") });
    // A move made while the game is being taken over is not lost: it is sent once the page is
    // back in the room, against the table it was made on (kept as it was: no move lost).
    const made = await moveOnce(A, B);
    assert.equal(made.before, table);
    await until("both pages are back", async () =>
      (await A.getByTestId("reconnecting").count()) === 0 && (await B.getByTestId("reconnecting").count()) === 0, 30_000);
    await bothShowMove(A, B, made, 30_000);
    const tookMs = Date.now() - killedAt;
    console.log(`# from the kill to the move made meanwhile taken: ${tookMs} ms`);
    await playOne(A, B);

    const after = await Promise.all(PORTS.map(roomsOn));
    assert.equal(after[owner], -1, "the killed node is down");
    const took = after.map((n, i) => (i === owner ? 0 : n - counts[i]));
    assert.equal(took.filter((n) => n === 1).length, 1, `another node runs the room now: ${counts} -> ${after}`);
    await A.screenshot({ path: join(ARTIFACTS, "node-killed-played-on.png") });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
