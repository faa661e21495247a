// End-to-end: what the links of a room let their holders do. The server runs with a low lockout
// for wrong codes per address (PLATEAU_SERVER_FLAGS=--limit-ip-wrong-codes 3, set by ctest), and
// every page here comes from 127.0.0.1, one address. A stranger's wrong codes lock the address
// out; a friend on it still takes a seat with the invite link (the room id with its code), while
// a wrong code, and an old code-only link, are refused. The watch link lets a stranger watch a
// private room and nothing more: no invite link or code on his page, no seat offered. A spectator
// of a public waiting room takes a free seat with a button. Needs PLATEAU_URL, as the other tests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ARTIFACTS, BASE, SKIP, createPrivateRoom, enterName, launch, newPage } from "./support.mjs";

const OVERALL_MS = Number(process.env.PLATEAU_E2E_TIMEOUT_MS ?? 3 * 60 * 1000);

/** `page` opens `hash` on this server and waits for the refusal it shows; returns its text. */
async function refusal(page, hash) {
  // By the lobby, so the last refusal shown is gone before the next is awaited.
  await page.evaluate(() => { location.hash = "#/"; });
  await page.getByTestId("join-error").waitFor({ state: "detached" });
  await page.evaluate((h) => { location.hash = h; }, hash);
  const error = page.getByTestId("join-error");
  await error.waitFor();
  return error.innerText();
}

test("invite and watch links", { timeout: OVERALL_MS, skip: SKIP }, async () => {
  const browser = await launch();
  const errors = [];
  try {
    // --- Ada hosts a private table for three.
    const { page: A } = await newPage(browser, errors, "Ada");
    await A.goto(`${BASE}/#/`, { timeout: 30_000 });
    await enterName(A, "Ada");
    const invite = await createPrivateRoom(A, "globalissimo", 3);
    const [, roomId, code] = invite.match(/#\/join\/([^/]+)\/([^/]+)$/) ?? [];
    assert.ok(roomId && code, `an invite link carries the room id and the code, got ${invite}`);
    assert.equal(await A.getByTestId("join-code").innerText(), code);
    const watchLink = await A.getByTestId("watch-link").inputValue();
    const [, watchRoomId, watchCode] = watchLink.match(/#\/watch\/([^/]+)\/([^/]+)$/) ?? [];
    assert.equal(watchRoomId, roomId, `a watch link carries the room id, got ${watchLink}`);
    assert.ok(watchCode && watchCode !== code, "a watch link carries its own code, not the join code");
    assert.ok(!watchLink.includes(code), "the join code is nowhere in the watch link");

    // --- A stranger on the same address guesses codes until the address is locked out. "There
    // is no such room" offers no "Watch instead": there is nothing to watch.
    const { page: S } = await newPage(browser, errors, "Stranger");
    await S.goto(`${BASE}/#/`, { timeout: 30_000 });
    await enterName(S, "Stranger");
    const guesses = ["AAAAAA", "BBBBBB", "CCCCCC"].filter((g) => g !== code);
    for (const guess of guesses.slice(0, 2)) {
      assert.match(await refusal(S, `#/join/${guess}`), /no such room/i);
      assert.equal(await S.getByTestId("spectate").count(), 0, "no room, nothing to watch");
    }
    assert.match(await refusal(S, `#/join/${roomId}/${guesses[0]}`), /no such room/i);
    assert.match(await refusal(S, `#/join/DDDDDD`), /wrong room codes/i);

    // --- Bob, on that address, opens Ada's invite link: it still seats him.
    const { page: B } = await newPage(browser, errors, "Bob");
    await B.goto(invite, { timeout: 30_000 });
    await enterName(B, "Bob");
    await B.getByTestId("take-seat").click();
    await B.getByTestId("ready-toggle").waitFor();
    await A.locator("[data-testid=seat]", { hasText: "Bob" }).waitFor();

    // --- Still locked out: a wrong code with the room id, and the old link with the code alone.
    const { page: C } = await newPage(browser, errors, "Carl");
    await C.goto(`${BASE}/#/`, { timeout: 30_000 });
    await enterName(C, "Carl");
    assert.match(await refusal(C, `#/join/${roomId}/${guesses[1]}`), /wrong room codes/i);
    assert.match(await refusal(C, `#/join/${code}`), /wrong room codes/i);
    assert.equal(await C.getByTestId("spectate").count(), 0);

    // --- Dan, a stranger given the watch link, watches: no invite link or code, no seat, though
    // the room waits and a seat is free.
    const { page: D } = await newPage(browser, errors, "Dan");
    await D.goto(watchLink, { timeout: 30_000 });
    await enterName(D, "Dan");
    await D.locator("[data-testid=room]", { hasText: "you are watching" }).waitFor();
    await D.locator("[data-testid=seat].free").first().waitFor();
    assert.equal(await D.getByTestId("watch-link").inputValue(), watchLink, "he may hand on the watch link");
    assert.equal(await D.getByTestId("share-link").count(), 0, "no invite link for a spectator");
    assert.equal(await D.getByTestId("join-code").count(), 0, "no join code for a spectator");
    assert.equal(await D.getByTestId("take-seat").count(), 0, "no seat for the watch link's holder");
    assert.ok(!(await D.content()).includes(code), "the join code is nowhere on his page");
    await A.locator("[data-testid=room]", { hasText: "1 watching" }).waitFor();
    await D.screenshot({ path: join(ARTIFACTS, "links-watcher.png") });
    // Nor by the room's id in another tab, which shows him the invitation of a member.
    const D2 = await D.context().newPage();
    D2.on("pageerror", (e) => errors.push(`Dan tab 2: ${e.message}`));
    await D2.goto(`${BASE}/#/room/${roomId}`, { timeout: 30_000 });
    await D2.getByTestId("invite").waitFor();
    assert.ok(await D2.getByTestId("take-seat").isDisabled(), "no seat by the room id either");
    assert.match(await D2.getByTestId("invite-status").innerText(), /invited to watch/);
    await D2.close();

    // --- Eve watches Ada's public waiting table by its watch link and takes a free seat.
    await A.goto(`${BASE}/#/`);
    await A.getByTestId("create-room-globalissimo").click();
    await A.getByTestId("create-room-modal").waitFor();
    await A.getByTestId("visibility-public").click();
    await A.getByTestId("seats-2").click();
    await A.getByTestId("create-room-submit").click();
    const publicWatch = await A.getByTestId("watch-link").inputValue();
    assert.match(publicWatch, /#\/watch\/room\/[^/]+$/);
    const { page: E } = await newPage(browser, errors, "Eve");
    await E.goto(publicWatch, { timeout: 30_000 });
    await enterName(E, "Eve");
    await E.locator("[data-testid=room]", { hasText: "you are watching" }).waitFor();
    await E.getByTestId("take-seat").click();
    await E.getByTestId("ready-toggle").waitFor();
    await A.locator("[data-testid=seat]", { hasText: "Eve" }).waitFor();
    assert.equal(await E.getByTestId("share-link").count(), 1, "seated, she may invite");

    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
