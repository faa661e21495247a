// End-to-end: a player's key to his seats, and a rematch with a player away.
//   - Ada's key (the token in her browser's storage) is copied to another browser: her page shows
//     that her player was opened elsewhere. She signs out everywhere from the 🔑 menu: her page
//     keeps her player under a new key, the other browser is told, says once that it starts as a
//     new player, and does so.
//   - Ada, Bob and a bot play three-player Guerre Froide; Bob leaves conceding, Ada resigns and
//     the bot wins. Ada's Rematch button is disabled with the reason (Bob has left), the choice
//     to play without him enables it, and the rematch starts with Ada and the bot.
// Needs PLATEAU_URL, as the other tests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ARTIFACTS, BASE, SKIP, createPrivateRoom, enterName, joinReady, launch, newPage, sleep, until } from "./support.mjs";

const OVERALL_MS = Number(process.env.PLATEAU_E2E_TIMEOUT_MS ?? 5 * 60 * 1000);

const tokenOf = (page) => page.evaluate(() => localStorage.getItem("plateau.token") ?? "");

test("a key opened elsewhere, signing out everywhere", { timeout: OVERALL_MS, skip: SKIP }, async () => {
  const browser = await launch();
  const errors = [];
  try {
    const { page: A } = await newPage(browser, errors, "Ada");
    await A.goto(`${BASE}/#/`, { timeout: 30_000 });
    await enterName(A, "Ada");
    let old = "";
    await until("Ada's page holds her key", async () => (old = await tokenOf(A)) !== "");
    assert.equal(await A.getByTestId("session-notice").count(), 0, "nothing to say while one page is open");

    // Another browser given Ada's key: her page is told.
    const { page: D } = await newPage(browser, errors, "copy");
    await D.goto(`${BASE}/#/`, { timeout: 30_000 });
    await D.evaluate((t) => { localStorage.setItem("plateau.token", t); localStorage.setItem("plateau.name", "Ada"); }, old);
    await D.reload();
    await D.getByTestId("me-name").filter({ hasText: "Ada" }).waitFor();
    const notice = A.locator("[data-testid=session-notice][data-kind='1']");
    await notice.waitFor();
    assert.match(await notice.innerText(), /opened on another device or tab \(2 open now\)/);
    await A.screenshot({ path: join(ARTIFACTS, "seats-opened-elsewhere.png") });
    await A.getByTestId("session-notice-dismiss").click();
    assert.equal(await A.getByTestId("session-notice").count(), 0);

    // Ada signs out everywhere.
    await A.getByTestId("account-menu").click();
    await A.getByTestId("account-panel").waitFor();
    await A.screenshot({ path: join(ARTIFACTS, "seats-account-menu.png") });
    await A.getByTestId("sign-out-everywhere").click();
    await A.getByTestId("toast-info").filter({ hasText: "Signed out everywhere" }).waitFor();
    const renewed = await tokenOf(A);
    assert.ok(renewed && renewed !== old, "Ada's page holds a new key");

    // The other browser is closed off, says so once, and starts as a new player.
    await D.getByTestId("toast-info").filter({ hasText: "signed out everywhere" }).waitFor();
    await until("the other browser has a key of its own", async () => {
      const t = await tokenOf(D);
      return t !== "" && t !== old && t !== renewed;
    });
    await D.screenshot({ path: join(ARTIFACTS, "seats-signed-out.png") });
    await sleep(1500);
    assert.equal(await D.getByTestId("toast-info").filter({ hasText: "signed out everywhere" }).count(), 1,
      "said once, with no loop of refusals");
    assert.equal(await D.getByTestId("toast-error").count(), 0);
    assert.equal(await D.getByTestId("toast-info").filter({ hasText: "restarting" }).count(), 0,
      "closed for signing out, not for a restart");
    // Ada's page goes on under the new key, after a reload too.
    await A.reload();
    await A.getByTestId("me-name").filter({ hasText: "Ada" }).waitFor();
    await sleep(500);
    assert.equal(await tokenOf(A), renewed);
    assert.equal(await A.getByTestId("toast-info").filter({ hasText: "new player" }).count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test("the Rematch button says why it cannot start, and without the away player it can", { timeout: OVERALL_MS, skip: SKIP }, async () => {
  const browser = await launch();
  const errors = [];
  try {
    const { page: A } = await newPage(browser, errors, "Ada");
    const { page: B } = await newPage(browser, errors, "Bob", { width: 1280, height: 900 });
    await A.goto(`${BASE}/#/`, { timeout: 30_000 });
    await enterName(A, "Ada");
    const link = await createPrivateRoom(A, "guerre_froide", 3);
    await joinReady(B, link, "Bob");
    await A.getByTestId("add-bot-2").click();
    await A.getByTestId("start-game").click();
    await A.getByTestId("game-area").waitFor();
    await B.getByTestId("game-area").waitFor();

    // Bob leaves conceding; Ada resigns: the bot is left and wins.
    await B.getByTestId("leave-room").click();
    await B.getByTestId("leave-concede").click();
    await A.getByTestId("resign").click();
    await A.getByTestId("resign-confirm").click();
    await A.getByTestId("game-over").waitFor();

    const ask = A.getByTestId("rematch-ask");
    await ask.waitFor();
    await until("the Rematch button is disabled", async () => await ask.isDisabled());
    assert.match(await A.getByTestId("rematch-blocked").innerText(), /Bob has left the table\./);
    assert.match(await ask.getAttribute("title"), /Bob has left the table\./);
    await A.screenshot({ path: join(ARTIFACTS, "seats-rematch-blocked.png") });
    const without = A.getByTestId("rematch-without");
    assert.equal(await without.isDisabled(), false, "two seats are enough without Bob");
    await without.click();
    await until("the Rematch button is enabled without Bob", async () => !(await ask.isDisabled()));
    assert.equal(await A.getByTestId("rematch-blocked").count(), 0);
    await ask.click();
    // The bot agrees at once: a new game with Ada and the bot.
    await until("the rematch starts", async () =>
      (await A.getByTestId("game-over").count()) === 0 && (await A.getByTestId("game-area").count()) === 1);
    await A.screenshot({ path: join(ARTIFACTS, "seats-rematch-started.png") });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
