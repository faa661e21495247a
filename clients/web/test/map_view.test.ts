import { describe, expect, it } from "vitest";
import {
  clampView, clickSelection, DRAG_SLOP, dragView, endDrag, frame, MAP_H, MAP_W, MAX_ZOOM, moveDrag, startDrag, viewBox, WHOLE_MAP, zoomAt,
} from "../src/games/globalissimo/mapView";

describe("a press on the map: click or drag", () => {
  it("is a click while the pointer stays within a few pixels", () => {
    const d = startDrag(1, 100, 100, WHOLE_MAP);
    expect(endDrag(d, 100, 100)).toBe("click");
    expect(endDrag(moveDrag(d, 102, 103), 103, 102)).toBe("click");
    expect(endDrag(d, 100 + DRAG_SLOP, 100)).toBe("click");
  });

  it("is a drag once it went further, even if it comes back to where it started", () => {
    const d = startDrag(1, 100, 100, WHOLE_MAP);
    expect(endDrag(d, 100, 110)).toBe("drag");
    const far = moveDrag(d, 130, 100);
    expect(far.panning).toBe(true);
    expect(endDrag(moveDrag(far, 100, 100), 100, 100)).toBe("drag");
  });

  it("moves the map with the pointer, inside the map", () => {
    const from = zoomAt(WHOLE_MAP, 4);
    const d = moveDrag(startDrag(1, 100, 100, from), 150, 100);
    // 50 px right at one map unit per pixel: the view goes 50 units left.
    expect(dragView(d, 150, 100, 1).center).toEqual([from.center[0] - 50, from.center[1]]);
    // Dragged far beyond the edge: the view stops at the map's left and top.
    const [x, y] = viewBox(dragView(d, 5000, 5000, 1));
    expect([x, y]).toEqual([0, 0]);
    // A small wobble moves nothing.
    expect(dragView(startDrag(1, 100, 100, from), 102, 100, 1)).toEqual(from);
  });

  it("cannot move the whole map, which fills the view", () => {
    const d = moveDrag(startDrag(1, 0, 0, WHOLE_MAP), 300, 200);
    expect(dragView(d, 300, 200, 1)).toEqual(WHOLE_MAP);
  });
});

describe("zoom", () => {
  it("keeps the point under the pointer where it is", () => {
    const v = zoomAt(WHOLE_MAP, 2, 0.25, 0.5);
    const [x, y, w, h] = viewBox(v);
    expect(v.zoom).toBe(2);
    expect(x + 0.25 * w).toBeCloseTo(MAP_W * 0.25);
    expect(y + 0.5 * h).toBeCloseTo(MAP_H * 0.5);
  });

  it("stays between the whole map and the closest zoom, and inside the map", () => {
    expect(zoomAt(WHOLE_MAP, 0.5)).toEqual(WHOLE_MAP);
    expect(zoomAt({ zoom: 6, center: [480, 235] }, 10).zoom).toBe(MAX_ZOOM);
    const [x, y, w, h] = viewBox(zoomAt(WHOLE_MAP, 3, 1, 1));
    expect(x + w).toBeCloseTo(MAP_W);
    expect(y + h).toBeCloseTo(MAP_H);
    expect(clampView({ zoom: 2, center: [-100, 9999] }).center).toEqual([MAP_W / 4, MAP_H * 3 / 4]);
  });
});

describe("selecting a country", () => {
  const offered = new Set(["076", "250"]);

  it("selects an offered region, switches to another, and takes it back on a second click", () => {
    let sel = clickSelection(undefined, "250", offered);
    expect(sel).toBe("250");
    sel = clickSelection(sel, "076", offered);
    expect(sel).toBe("076");
    expect(clickSelection(sel, "076", offered)).toBeUndefined();
  });

  it("ignores a country not offered, and the sea", () => {
    expect(clickSelection(undefined, "124", offered)).toBeUndefined();
    expect(clickSelection("250", "124", offered)).toBe("250");
    expect(clickSelection("250", undefined, offered)).toBe("250");
  });
});

describe("framing an answer", () => {
  it("zooms on a small country with room around it, centred on it", () => {
    const v = frame([[470, 120], [490, 140]]);
    expect(v.zoom).toBe(4);
    expect(v.center).toEqual([480, 130]);
  });

  it("shows the whole map for a country spread across it", () => {
    expect(frame([[0, 0], [MAP_W, MAP_H / 2]])).toEqual(WHOLE_MAP);
  });
});
