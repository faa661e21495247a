// End-to-end: one player in two tabs, and the lobby's live room list. A browser context is one
// player (the session token lives in its localStorage), so two pages of one context are two tabs
// of the same player, each with its own WebSocket. Ada plays a public Globalissimo room against
// Bob from two tabs: both tabs follow every move, closing one leaves her seat online and the
// other tab playing, closing the last shows her offline. Cid keeps the lobby open throughout and
// sees the room appear, fill and start without reloading. Needs PLATEAU_URL, as the other tests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ARTIFACTS, BASE, SKIP, STEP_MS, enterName, globalissimoBoard, isMyTurn, launch, newPage, playMove, sleep, until } from "./support.mjs";

const OVERALL_MS = Number(process.env.PLATEAU_E2E_TIMEOUT_MS ?? 5 * 60 * 1000);

/** `actor` moves; every page of `watchers` must then show the same new board. */
async function moveAndFollow(actor, watchers) {
  const before = await globalissimoBoard(actor);
  const what = await playMove(actor);
  await until(`the ${what} move shows on the page that made it`, async () => {
    if (await actor.getByTestId("action-error").count()) assert.fail(await actor.getByTestId("action-error").innerText());
    return (await globalissimoBoard(actor)) !== before;
  });
  // The actor's board may move on again (scoring, the next round) while the others catch up.
  await until(`every page follows the ${what} move`, async () => {
    const states = await Promise.all([actor, ...watchers].map(globalissimoBoard));
    return states.every((s) => s === states[0]) && states[0] !== before;
  });
}

test("a player in two tabs, and the lobby's live list", { timeout: OVERALL_MS, skip: SKIP }, async () => {
  const browser = await launch();
  const errors = [];
  try {
    // --- Cid opens the lobby first: the room below does not exist yet.
    const { ctx: ctxC, page: C } = await newPage(browser, errors, "Cid", { width: 1200, height: 900 });
    await C.goto(`${BASE}/#/`, { timeout: 30_000 });
    await enterName(C, "Cid");
    const card = C.getByTestId("game-card-globalissimo");
    await card.locator(".empty").or(card.getByTestId("public-room").first()).waitFor();
    // Gone if the page reloads.
    await C.evaluate(() => { window.__sameLobby = true; });

    // --- Ada, tab 1: a public room for two.
    const { ctx: ctxA, page: A1 } = await newPage(browser, errors, "Ada tab 1");
    await A1.goto(`${BASE}/#/`, { timeout: 30_000 });
    await enterName(A1, "Ada");
    await A1.getByTestId("create-room-globalissimo").click();
    await A1.getByTestId("create-room-modal").waitFor();
    await A1.getByTestId("room-title").fill("Ada in two tabs");
    await A1.getByTestId("visibility-public").click();
    await A1.getByTestId("seats-2").click();
    await A1.getByTestId("create-room-submit").click();
    const link = await A1.getByTestId("share-link").inputValue();
    const roomId = link.match(/#\/room\/([^/?]+)$/)?.[1];
    assert.ok(roomId, `a public room's link is #/room/<id>, got ${link}`);

    // Cid's lobby shows it without a reload.
    const row = C.locator(`[data-testid=public-room][data-room-id="${roomId}"]`);
    await row.filter({ hasText: "Ada in two tabs" }).waitFor();
    assert.equal(await row.getAttribute("data-status"), "1", "a new room waits for players");
    // What the table is before joining it: its host and its options in words.
    const about = await row.getByTestId("room-about").innerText();
    assert.match(about, /hosted by Ada/);
    assert.match(about, /10 rounds \(the full game\)/);
    // One game's tables only, then all of them again.
    await C.getByTestId("filter-globalissimo").click();
    assert.equal(await C.getByTestId("game-card-limit").count(), 0);
    await row.waitFor();
    await C.getByTestId("filter-all").click();
    await C.getByTestId("game-card-limit").waitFor();
    // How to play, from the game's card.
    await C.getByTestId("rules-globalissimo").click();
    await C.getByTestId("rules-page").waitFor();
    assert.ok((await C.locator(".rules-section").count()) >= 4);
    await C.goBack();
    await row.waitFor();

    // --- Bob joins by the link and gets ready; Cid sees the seats fill.
    const { ctx: ctxB, page: B } = await newPage(browser, errors, "Bob", { width: 1200, height: 900 });
    await B.goto(link, { timeout: 30_000 });
    await enterName(B, "Bob");
    // A public room's link offers the choice too: Bob takes a seat.
    await B.getByTestId("invite").waitFor();
    assert.match(await B.getByTestId("invite-status").innerText(), /1 of 2 seats is free/);
    await B.getByTestId("take-seat").click();
    await B.getByTestId("ready-toggle").click();
    await B.locator("[data-testid=ready-toggle][aria-pressed=true]").waitFor();
    await row.filter({ hasText: "2/2" }).waitFor();

    await A1.locator("[data-testid=start-game]:not([disabled])").waitFor();
    await A1.getByTestId("start-game").click();
    for (const p of [A1, B]) await p.getByTestId("gl-board").waitFor({ timeout: 30_000 });
    // ... and the room go into play.
    await C.locator(`[data-testid=public-room][data-room-id="${roomId}"][data-status="2"]`).waitFor();
    assert.equal(await C.evaluate(() => window.__sameLobby), true, "Cid's lobby was reloaded");

    // --- Ada, tab 2: the same context, so the same player, on the same room.
    const A2 = await ctxA.newPage();
    A2.setDefaultTimeout(STEP_MS);
    A2.on("pageerror", (e) => errors.push(`Ada tab 2: ${e.message}`));
    await A2.goto(link, { timeout: 30_000 });
    await A2.getByTestId("gl-board").waitFor({ timeout: 30_000 });
    await A2.getByTestId("me-name").filter({ hasText: "Ada" }).waitFor();
    assert.equal(await A2.getByTestId("name-modal").count(), 0, "the second tab knows the player already");
    await until("both of Ada's tabs show the same board", async () => (await globalissimoBoard(A1)) === (await globalissimoBoard(A2)));
    assert.equal(await isMyTurn(A1), await isMyTurn(A2), "both of Ada's tabs agree on whose turn it is");

    // A move (Ada's from tab 1 if hers, else Bob's) reaches both of her tabs.
    if (await isMyTurn(A1)) await moveAndFollow(A1, [A2, B]);
    else await moveAndFollow(B, [A1, A2]);
    assert.equal(await isMyTurn(A1), await isMyTurn(A2));
    await A2.screenshot({ path: join(ARTIFACTS, "tabs-second-tab.png"), fullPage: true });

    const adaOnBob = B.locator("[data-testid=seat]", { hasText: "Ada" });
    await adaOnBob.waitFor();
    assert.equal(await adaOnBob.locator(".badge.off").count(), 0, "Ada is online with two tabs open");

    // --- Tab 1 closes: another connection of Ada's is still open, so her seat stays online.
    await A1.close();
    await sleep(2000);
    assert.equal(await adaOnBob.locator(".badge.off").count(), 0, "Ada shows offline while her second tab is open");

    // Tab 2 still plays: Bob moves until it is Ada's turn, then tab 2 moves.
    for (let i = 0; !(await isMyTurn(A2)); i++) {
      assert.ok(i < 20, "Ada's turn never came");
      if (await isMyTurn(B)) await moveAndFollow(B, [A2]);
      else await sleep(100);
    }
    await moveAndFollow(A2, [B]);
    assert.equal(await adaOnBob.locator(".badge.off").count(), 0);

    // --- The last tab closes: now Bob sees Ada offline.
    await A2.close();
    await adaOnBob.locator(".badge.off").waitFor();
    await B.screenshot({ path: join(ARTIFACTS, "tabs-ada-offline.png"), fullPage: true });

    assert.deepEqual(errors, [], "uncaught errors in the pages");
    await ctxA.close();
    await ctxB.close();
    await ctxC.close();
  } finally {
    await browser.close();
  }
});

// Renaming from the header: the new name is kept (a reload says Hello with the token and gets it
// back) and a table created afterwards seats the player under it.
test("a player renames from the header", { timeout: 2 * 60 * 1000, skip: SKIP }, async () => {
  const browser = await launch();
  const errors = [];
  try {
    const { page: Z } = await newPage(browser, errors, "Zoe");
    await Z.goto(`${BASE}/#/`, { timeout: 30_000 });
    await enterName(Z, "Zoe");
    await Z.getByTestId("me-name").click();
    await Z.getByTestId("rename-input").fill("   ");
    assert.ok(await Z.getByTestId("rename-save").isDisabled(), "an empty name cannot be saved");
    await Z.getByTestId("rename-input").fill("Zoe Quill");
    await Z.getByTestId("rename-save").click();
    await Z.getByTestId("me-name").filter({ hasText: "Zoe Quill" }).waitFor({ timeout: STEP_MS });
    await Z.reload();
    await Z.getByTestId("me-name").filter({ hasText: "Zoe Quill" }).waitFor({ timeout: STEP_MS });
    await Z.getByTestId("create-room-globalissimo").click();
    await Z.getByTestId("create-room-modal").waitFor();
    await Z.getByTestId("create-room-submit").click();
    await Z.locator("[data-testid=seat]", { hasText: "Zoe Quill" }).waitFor({ timeout: STEP_MS });
    assert.deepEqual(errors, [], "uncaught errors in the page");
  } finally {
    await browser.close();
  }
});
