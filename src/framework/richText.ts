/**
 * The rich-text editor's formats (spec part 1 §9): the font whitelist and the 90 preset colours.
 * Pure data, no Quill import, so tests and the server can read it.
 */
import { RICH_TEXT_FONTS } from "../domain/richTextHtml.ts";

export { RICH_TEXT_FONTS };

/** CSS font-family for each whitelisted font (the `.ql-font-*` classes). */
export const RICH_TEXT_FONT_FAMILIES: Record<(typeof RICH_TEXT_FONTS)[number], string> = {
  arial: "Arial, sans-serif",
  verdana: "Verdana, sans-serif",
  tahoma: "Tahoma, sans-serif",
  timesnewroman: '"Times New Roman", serif',
  georgia: "Georgia, serif",
  couriernew: '"Courier New", monospace',
  comicsansms: '"Comic Sans MS", cursive',
  trebuchetms: '"Trebuchet MS", sans-serif',
  impact: "Impact, sans-serif",
  helvetica: "Helvetica, Arial, sans-serif",
  variablefont: "system-ui, sans-serif",
};

/** The ten base colours (first palette row). */
export const BASE_COLOURS = [
  "#000000",
  "#ffffff",
  "#888888",
  "#e60000",
  "#ff9900",
  "#ffff00",
  "#008a00",
  "#0066cc",
  "#9933ff",
  "#663d00",
] as const;

/** The seven brand hues, primary first. */
export const BRAND_HUES = ["#1677ff", "#fa541c", "#52c41a", "#faad14", "#722ed1", "#eb2f96", "#13c2c2"] as const;

/** Opacity steps of every brand hue: 100 % down to 5 %. */
export const TRANSPARENCY_STEPS = [1, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05] as const;
/** The three primary hues get one more, faintest step so the palette has exactly 90 colours. */
export const EXTRA_STEP = 0.02;

function rgba(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return alpha === 1 ? hex : `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/** 10 base colours + 7 hues × 11 steps + 3 extra steps = 90 colours. */
export const RICH_TEXT_PALETTE: readonly string[] = [
  ...BASE_COLOURS,
  ...BRAND_HUES.flatMap((hue, i) => [...TRANSPARENCY_STEPS, ...(i < 3 ? [EXTRA_STEP] : [])].map((a) => rgba(hue, a))),
];

/** The editor's toolbar: fonts, headings, emphasis, colours, lists, alignment, links, images. */
export const RICH_TEXT_TOOLBAR = [
  [{ font: [...RICH_TEXT_FONTS] }, { header: [1, 2, 3, false] }],
  ["bold", "italic", "underline", "strike"],
  [{ color: [...RICH_TEXT_PALETTE] }, { background: [...RICH_TEXT_PALETTE] }],
  [{ list: "ordered" }, { list: "bullet" }, { align: [] }],
  ["link", "image"],
  ["clean"],
];
