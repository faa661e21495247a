// End-to-end: taking back a move in the web client. Two browsers in a private Globalissimo room
// (undo on, the form's default): the Undo button is shown to both players, enabled only for the
// player whose last move the server says may be taken back; a click puts both tables back as
// they were before the move; a stale click is refused and the refusal's reason is shown.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ARTIFACTS, SKIP, STEP_MS, globalissimoBoard, isMyTurn, launch, twoPlayerGame, until } from "./support.mjs";

const OVERALL_MS = Number(process.env.PLATEAU_E2E_TIMEOUT_MS ?? 5 * 60 * 1000);

async function undoEnabled(page) {
  return page.getByTestId("undo").isEnabled();
}

/** Places a tile at position 1 on the first free card. */
async function placeTile(page) {
  await page.getByTestId("tile-pos-1").click({ timeout: STEP_MS });
  await page.locator("button[data-testid=country-card][data-free=true]").first().click({ timeout: STEP_MS });
}

test("a player takes back his last move with Undo", { timeout: OVERALL_MS, skip: SKIP }, async () => {
  const browser = await launch();
  const errors = [];
  try {
    const { A, B } = await twoPlayerGame(browser, errors, "globalissimo", "gl-board", async (p) => {
      assert.ok(await p.getByTestId("undo-option").isChecked(), "taking back is on by default");
    });

    await until("someone's turn", async () => (await isMyTurn(A)) || (await isMyTurn(B)));
    const [first, second] = (await isMyTurn(A)) ? [A, B] : [B, A];
    for (const p of [first, second]) {
      await p.getByTestId("undo").waitFor();
      assert.equal(await undoEnabled(p), false, "nothing to take back before any move");
    }
    const firstBefore = await globalissimoBoard(first);
    const secondBefore = await globalissimoBoard(second);

    await placeTile(first);
    await until("the first player's Undo is enabled", () => undoEnabled(first));
    await until("the second player sees the tile", async () => (await globalissimoBoard(second)) !== secondBefore);
    assert.equal(await undoEnabled(second), false, "the other player cannot take back that move");
    await first.getByTestId("undo").scrollIntoViewIfNeeded();
    await first.screenshot({ path: join(ARTIFACTS, "undo-offered.png") });

    await first.getByTestId("undo").click();
    await until("the first table is back as before the move", async () => (await globalissimoBoard(first)) === firstBefore);
    await until("the second table is back as before the move", async () => (await globalissimoBoard(second)) === secondBefore);
    assert.equal(await undoEnabled(first), false, "a move is taken back once");
    assert.ok(await isMyTurn(first), "the turn is the first player's again");
    assert.equal(await first.getByTestId("undo-error").count(), 0);

    // The tile again, then the second player's: the last tile of the round turns the cards over,
    // which cannot be taken back, and the first player's move is no longer the last.
    await placeTile(first);
    await until("the first player's Undo is enabled again", () => undoEnabled(first));
    await until("the second player's turn", () => isMyTurn(second));
    await placeTile(second);
    await until("the first player's Undo is disabled", async () => !(await undoEnabled(first)));
    assert.equal(await undoEnabled(second), false, "the last tile revealed the ranks: it stands");
    // A client that still showed the button enabled (a stale page) is refused, with the reason.
    await first.evaluate(() => {
      const b = document.querySelector("[data-testid=undo]");
      b.disabled = false;
      b.click();
    });
    await first.getByTestId("undo-error").waitFor({ timeout: STEP_MS });
    assert.match(await first.getByTestId("undo-error").innerText(), /another move was made after yours/i);
    await first.getByTestId("undo-error").scrollIntoViewIfNeeded();
    await first.screenshot({ path: join(ARTIFACTS, "undo-refused.png") });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
