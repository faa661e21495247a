// The lobby's list of public rooms, kept from RoomList pages and RoomListChanged pushes. Pure:
// every function returns a new list and leaves its arguments alone, so a render holding the old
// one stays consistent.
import { RoomStatus, type RoomInfo } from "./store";

export interface RoomListing {
  /** In room id order, the order the server pages in. */
  rooms: RoomInfo[];
  /**
   * The last room id the loaded pages cover ("" once every page is loaded). Pushes speak of all
   * public rooms; one past this point belongs to a page not asked for yet, and keeping it would
   * leave a hole before it that "More rooms" could never fill in order.
   */
  next: string;
}

export interface RoomPage { rooms: RoomInfo[]; next_after_room_id: string }
export interface RoomListChange { changed: RoomInfo[]; removed_room_ids: string[] }

/** The server compares ids bytewise; ids are ASCII, where this is the same order. */
function byId(a: RoomInfo, b: RoomInfo): number {
  return a.room_id < b.room_id ? -1 : a.room_id > b.room_id ? 1 : 0;
}

// The server never lists these, but a stale push must not bring one back.
function listable(r: RoomInfo): boolean {
  return !r.is_private && r.status !== RoomStatus.FINISHED;
}

function covered(listing: RoomListing, id: string): boolean {
  return listing.next === "" || id <= listing.next;
}

/** The first page (`prev` null) or the page after `prev`. */
export function addPage(prev: RoomListing | null, page: RoomPage): RoomListing {
  const byRoom = new Map<string, RoomInfo>();
  for (const r of prev?.rooms ?? []) byRoom.set(r.room_id, r);
  // The page is newer than whatever an earlier page said of the same room.
  for (const r of page.rooms) {
    if (listable(r)) byRoom.set(r.room_id, r);
    else byRoom.delete(r.room_id);
  }
  return { rooms: [...byRoom.values()].sort(byId), next: page.next_after_room_id ?? "" };
}

/** Rooms changed replace (or join) the list, removed ones leave it. */
export function applyChange(listing: RoomListing, change: RoomListChange): RoomListing {
  const removed = new Set(change.removed_room_ids ?? []);
  const byRoom = new Map<string, RoomInfo>();
  for (const r of listing.rooms) if (!removed.has(r.room_id)) byRoom.set(r.room_id, r);
  for (const r of change.changed ?? []) {
    if (!listable(r)) byRoom.delete(r.room_id);
    else if (covered(listing, r.room_id)) byRoom.set(r.room_id, r);
  }
  return { rooms: [...byRoom.values()].sort(byId), next: listing.next };
}
