/**
 * The bank app's icons for its web app manifest (installable on a phone's home screen), drawn
 * here rather than shipped as files: the default mark's portico in white on the pages' blue,
 * full-bleed so a phone may crop it to its own shape ("maskable"). PNG, since a home screen wants
 * a bitmap; no third-party asset.
 */
import { crc32, deflateSync } from "node:zlib";

type Shape = (x: number, y: number) => boolean;

const box = (left: number, top: number, width: number, height: number): Shape =>
  (x, y) => x >= left && x < left + width && y >= top && y < top + height;

/** The mark of logo.ts on a 64-unit square, inset to the maskable icon's safe zone. */
const PORTICO: Shape[] = [
  (x, y) => y >= 21 && y < 25 ? x >= 9 && x < 55 : y >= 9 && y < 21
    && Math.abs(x - 32) <= ((y - 9) / 12) * 23,
  box(13, 28, 5, 19), box(23, 28, 5, 19), box(36, 28, 5, 19), box(46, 28, 5, 19),
  box(10, 49, 44, 4), box(7, 54, 50, 4),
];

const BLUE = [0x0b, 0x4f, 0x8a];
const WHITE = [0xff, 0xff, 0xff];

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A `size`×`size` PNG (8-bit RGB), each row with filter byte 0. */
export function appIcon(size: number): Buffer {
  const scale = 64 / (size * 0.8);
  const rows = Array.from({ length: size }, (_, py) => Buffer.from([0, ...Array.from(
    { length: size }, (__, px) => {
      const [x, y] = [(px - size * 0.1 + 0.5) * scale, (py - size * 0.1 + 0.5) * scale];
      return PORTICO.some((inside) => inside(x, y)) ? WHITE : BLUE;
    }).flat()]));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header), chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0))]);
}
