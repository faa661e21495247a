// @vitest-environment happy-dom
import { render, type ComponentChild } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Target } from "../src/table";
import { seatColor } from "../src/ui/common";
import { rectangle } from "../src/ui/hex";
import { RegionGraph } from "../src/ui/region_graph";
import { Hand } from "../src/ui/kit/Hand";
import { HexBoard, hexClickTarget, piecesByHex, type PieceView } from "../src/ui/kit/HexBoard";
import type { MoveChoice } from "../src/ui/kit/moves";
import { borderPairs, outlineEdges, piecesPerRegion, RegionMap } from "../src/ui/kit/RegionMap";
import { pawnOffsets, squareXY, Track } from "../src/ui/kit/Track";
import { squareLook } from "../src/games/globalissimo/Track";
import { Barrier } from "../src/games/globalissimo/model";

let host: HTMLElement;
function mount(el: ComponentChild) {
  host = document.createElement("div");
  document.body.append(host);
  act(() => { render(el, host); });
}
afterEach(() => {
  render(null, host);
  host.remove();
});
const $ = (sel: string) => host.querySelector<HTMLElement>(sel);
const $$ = (sel: string) => [...host.querySelectorAll<HTMLElement>(sel)];
const key = (el: Element, k: string) => act(() => { el.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true })); });

const choice = (k: string, target: MoveChoice["target"]): MoveChoice =>
  ({ key: k, label: { key: k, args: [] }, target, action: new Uint8Array([8, 1]), next: [], params: [], next_label: null, key_target: 0, next_paths: [] });
function piece(handle: string, over: Partial<PieceView> = {}): PieceView {
  return { handle, kind: 1, owner: 0, place: { hex: { q: 0, r: 0 }, index: 0 }, attrs: [], face_down: false, back: 0, ...over };
}

describe("HexBoard", () => {
  const hexes = rectangle(3, 2);
  const pieces = [
    piece("p1", { kind: 2, owner: 1, place: { hex: { q: 1, r: 0 }, index: 0 }, attrs: [3, 5] }),
    piece("h1", { kind: 0, owner: 0, face_down: true, back: 9, place: { hex: { q: 0, r: 1 }, index: 0 }, attrs: [] }),
    piece("p2", { kind: 1, owner: 0, place: { region: "north", index: 0 } }),
  ];
  const health = (p: PieceView) => (p.attrs.length >= 2 ? { hp: Number(p.attrs[0]), max: Number(p.attrs[1]) } : null);
  const kindLabel = (k: number) => ["?", "Inf", "Tank"][k] ?? "?";

  it("draws the pieces on their hexes: owner colour, kind, HP, a face-down look", () => {
    mount(<HexBoard hexes={hexes} pieces={pieces} kindLabel={kindLabel} health={health} />);
    expect($$("[data-hex]").length).toBe(hexes.length);
    const tank = $("[data-testid=piece][data-handle=p1]")!;
    expect(tank.closest("[data-hex]")!.getAttribute("data-hex")).toBe("1,0");
    expect(tank.querySelector("circle")!.getAttribute("fill")).toBe(seatColor(1));
    expect(tank.textContent).toContain("Tank");
    expect(tank.querySelector("[data-testid=piece-hp]")!.getAttribute("data-hp")).toBe("3");
    expect(tank.querySelector("[data-testid=piece-hp]")!.getAttribute("data-max")).toBe("5");
    const hidden = $("[data-testid=piece][data-handle=h1]")!;
    expect(hidden.getAttribute("class")).toContain("face-down");
    expect(hidden.textContent).toBe("?");
    expect(hidden.querySelector("[data-testid=piece-hp]")).toBeNull();
    // A piece in a region is not on the hex map.
    expect($("[data-testid=piece][data-handle=p2]")).toBeNull();
  });

  it("highlights the current choices' hexes and pieces, and reports a click as the target", () => {
    const onTarget = vi.fn((_t: Target) => {});
    const choices = [choice("a", { hex: { q: 2, r: 1 } }), choice("b", { piece: "p1" })];
    mount(<HexBoard hexes={hexes} pieces={pieces} choices={choices} onTarget={onTarget} />);
    expect($$(".hex.legal").map((e) => e.getAttribute("data-hex"))).toEqual(["2,1"]);
    expect($("[data-handle=p1]")!.getAttribute("class")).toContain("target");
    expect($("[data-handle=h1]")!.getAttribute("class")).not.toContain("target");
    // The keyboard: Enter focuses the first highlighted hex, a second Enter selects it.
    const svg = $("svg.hexgrid-svg")!;
    key(svg, "Enter");
    key(svg, "Enter");
    expect(onTarget).toHaveBeenCalledWith({ hex: { q: 2, r: 1 } });
  });

  it("takes a click on a hex holding a target piece as that piece", () => {
    const byHex = piecesByHex(pieces);
    expect(hexClickTarget({ q: 1, r: 0 }, byHex.get("1,0"), new Set(["p1"]))).toEqual({ piece: "p1" });
    expect(hexClickTarget({ q: 1, r: 0 }, byHex.get("1,0"), new Set())).toEqual({ hex: { q: 1, r: 0 } });
    expect(hexClickTarget({ q: 2, r: 0 }, byHex.get("2,0"), new Set(["p1"]))).toEqual({ hex: { q: 2, r: 0 } });
  });
});

describe("RegionMap", () => {
  const regions = [
    { id: "north", label: "North", x: 0, y: 0 },
    { id: "south", label: "South", x: 0, y: 100 },
    { id: "east", label: "East", x: 100, y: 50 },
  ];
  const graph = RegionGraph.build(["north", "south", "east"], [["north", "south"], ["south", "east"]]);
  const pieces = [
    piece("p1", { owner: 0, place: { region: "south", index: 0 } }),
    piece("p2", { owner: 0, place: { region: "south", index: 1 } }),
    piece("p3", { owner: 1, place: { region: "south", index: 2 } }),
  ];

  it("draws labelled regions, their borders and the pieces in each per owner", () => {
    mount(<RegionMap regions={regions} graph={graph} pieces={pieces} />);
    expect($$("[data-testid=region]").map((e) => e.textContent)).toEqual(["North", expect.stringContaining("South"), "East"]);
    expect($$("[data-testid=region-border]").length).toBe(2);
    expect(borderPairs(regions, graph)).toEqual([["north", "south"], ["south", "east"]]);
    expect($$("[data-region=south] [data-testid=region-pieces]").map((e) => [e.getAttribute("data-owner"), e.getAttribute("data-count")]))
      .toEqual([["0", "2"], ["1", "1"]]);
    expect(piecesPerRegion(pieces).get("north")).toBeUndefined();
  });

  it("makes only the choices' regions clickable, by mouse and keyboard", () => {
    const onTarget = vi.fn((_t: Target) => {});
    mount(<RegionMap regions={regions} graph={graph} choices={[choice("go", { region: "east" })]} onTarget={onTarget} />);
    expect($$("[data-target=true]").map((e) => e.getAttribute("data-region"))).toEqual(["east"]);
    act(() => { $("[data-region=north]")!.dispatchEvent(new MouseEvent("click", { bubbles: true })); });
    expect(onTarget).not.toHaveBeenCalled();
    const east = $("[data-region=east]")!;
    expect(east.getAttribute("tabindex")).toBe("0");
    act(() => { east.dispatchEvent(new MouseEvent("click", { bubbles: true })); });
    key(east, "Enter");
    expect(onTarget.mock.calls).toEqual([[{ region: "east" }], [{ region: "east" }]]);
  });
});

describe("RegionMap with outlines", () => {
  // Three unit squares in an L: west and east touch, west and south touch, east and south meet at
  // a corner only. West–east is a border, west–south is not (a sea between them).
  const square = [{ x: -5, y: -5 }, { x: 5, y: -5 }, { x: 5, y: 5 }, { x: -5, y: 5 }];
  const regions = [
    { id: "west", label: "West", x: 0, y: 0, outline: square },
    { id: "east", label: "East", x: 10, y: 0, outline: square },
    { id: "south", label: "South", x: 0, y: 10, outline: square },
  ];
  const graph = RegionGraph.build(["west", "east", "south"], [["west", "east"], ["east", "south"]]);

  it("finds the edges two shapes share and those facing no region", () => {
    const { shared, coast } = outlineEdges(regions);
    expect([...shared.keys()].sort()).toEqual(["east|west", "south|west"]);
    expect(shared.get("east|west")!.map(([p, q]) => [p.x, p.y, q.x, q.y])).toEqual([[5, -5, 5, 5]]);
    expect(coast.length).toBe(4 * 3 - 2 * 2);
  });

  it("draws shapes, a border along a shared edge, a barrier where shapes touch without one, a line where a border's shapes do not touch", () => {
    mount(<RegionMap regions={regions} graph={graph} body={(r) => <text class="mine">{r.label.toUpperCase()}</text>} />);
    expect($$("[data-testid=region] polygon").length).toBe(3);
    expect($$("[data-testid=region] circle").length).toBe(0);
    expect($$("[data-testid=region]").map((e) => e.textContent)).toEqual(["WEST", "EAST", "SOUTH"]);
    expect($$("[data-testid=region-border]").map((e) => [e.tagName.toLowerCase(), e.getAttribute("data-regions")]))
      .toEqual([["line", null], ["path", "east|west"]]);
    expect($("[data-testid=region-border][data-regions='east|west']")!.getAttribute("d")).toBe("M5.0,-5.0L5.0,5.0");
    expect($$("[data-testid=region-barrier]").map((e) => e.getAttribute("data-regions"))).toEqual(["south|west"]);
    expect($("[data-testid=region-map]")!.getAttribute("viewBox")).toBe("-9 -9 28 28");
  });

  it("rings a target's shape inside its edge", () => {
    mount(<RegionMap regions={regions} graph={graph} choices={[choice("go", { region: "south" })]} onTarget={() => {}} />);
    expect($$(".kit-region-ring").map((e) => e.closest("[data-testid=region]")!.getAttribute("data-region"))).toEqual(["south"]);
  });
});

describe("Hand", () => {
  const face = (id: string) => <span class="face">{id.toUpperCase()}</span>;

  it("draws each card's face from the board's data, playable ones marked and clickable", () => {
    const onTarget = vi.fn((_t: Target) => {});
    mount(<Hand cards={["c1", "c2", "c3"]} face={face} choices={[choice("play", { card: "c2" })]} onTarget={onTarget} />);
    expect($$("[data-testid=hand-card]").map((e) => e.textContent)).toEqual(["C1", "C2", "C3"]);
    expect($$("button[data-testid=hand-card]").map((e) => e.getAttribute("data-card"))).toEqual(["c2"]);
    act(() => { $("button[data-card=c2]")!.click(); });
    expect(onTarget).toHaveBeenCalledWith({ card: "c2" });
  });

  it("lets a board select any card and shows its selection", () => {
    const onTarget = vi.fn((_t: Target) => {});
    mount(<Hand cards={["c1", "c2"]} face={face} selectable selected={new Set(["c1"])} onTarget={onTarget} />);
    expect($$("button[data-testid=hand-card]").length).toBe(2);
    expect($("[data-card=c1]")!.getAttribute("aria-pressed")).toBe("true");
    expect($("[data-card=c2]")!.getAttribute("aria-pressed")).toBe("false");
    act(() => { $("button[data-card=c1]")!.click(); });
    expect(onTarget).toHaveBeenCalledWith({ card: "c1" });
  });

  it("is not clickable without a handler (replays, spectators)", () => {
    mount(<Hand cards={["c1"]} face={face} choices={[choice("play", { card: "c1" })]} />);
    expect($$("button").length).toBe(0);
  });
});

describe("Track", () => {
  it("winds its squares and stands the pawns on theirs, side by side", () => {
    expect(squareXY(0, 12)).toEqual([8, 8]);
    expect(squareXY(11, 12)[0]).toBe(squareXY(12, 12)[0]);  // the second row comes back
    expect(pawnOffsets(2)).toEqual([[-6, 0], [6, 0]]);
    mount(<Track squares={[{ label: "START" }, { label: "1" }, { label: "2" }]} cols={2}
      pawns={[{ seat: 0, at: 2, title: "Ann" }, { seat: 1, at: 2 }, { seat: 2, at: 1 }]} />);
    expect($$("[data-square]").filter((e) => e.tagName.toLowerCase() === "g" && !e.matches("[data-testid=pawn]")).length).toBe(3);
    expect($$("[data-testid=pawn]").map((e) => [e.getAttribute("data-seat"), e.getAttribute("data-square")]))
      .toEqual([["0", "2"], ["1", "2"], ["2", "1"]]);
    expect($("[data-testid=pawn][data-seat='0'] title")!.textContent).toBe("Ann");
  });

  it("draws Globalissimo's squares: start, scores, barriers faded once crossed", () => {
    expect(squareLook({ distance: 0, barrier: Barrier.NONE, barrier_present: false }, 0)).toEqual({ cls: "gl-sq score start", label: "START" });
    expect(squareLook({ distance: 4, barrier: Barrier.NONE, barrier_present: false }, 3)).toEqual({ cls: "gl-sq score", label: "4" });
    expect(squareLook({ distance: 5, barrier: Barrier.ORANGE, barrier_present: true }, 5)).toEqual({ cls: "gl-sq orange", label: "🏛" });
    expect(squareLook({ distance: 5, barrier: Barrier.VIOLET, barrier_present: false }, 5)).toEqual({ cls: "gl-sq violet taken", label: "" });
  });
});
