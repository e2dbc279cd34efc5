/** Communication constants shared by the resource declarations and the hand-written pages (spec part 1 §9). */

/** Who a broadcast or news item goes to, labelled. */
export const RECIPIENT_TYPES = { all: "All", student: "Students", parent: "Parents" } as const;
