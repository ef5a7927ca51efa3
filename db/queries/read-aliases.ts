import { alias } from "drizzle-orm/pg-core";
import { asks, slots } from "../schema";

/**
 * The question and the slot the read models' statements name as `a` and `s`: interpolated into `sql`,
 * `${a.slotId}` renders `"a"."slot_id"` and `${asks} ${a}` renders `"asks" "a"`, so every table and
 * column a statement names comes from the schema and renaming one is a compile error.
 */
export const a = alias(asks, "a");
export const s = alias(slots, "s");
