/**
 * Why DATA_DIR cannot hold the bank's files, found before anything is created in it: a mistaken
 * DATA_DIR then reads as one sentence instead of a failure deep inside mkdir or SQLite.
 */
import { accessSync, constants, statSync, type Stats } from "node:fs";
import { dirname, resolve } from "node:path";

/** Kernel file systems: `mkdir -p` below /proc never returns (it spins at full CPU). */
const KERNEL_FILE_SYSTEMS = ["/proc", "/sys"];

/** The file system entry at `path`, or undefined when there is none (or a file is in the way). */
function entry(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * What is wrong with `dataDir` as the bank's data directory, to follow "DATA_DIR <path>", or
 * undefined when it will do.
 */
export function dataDirProblem(dataDir: string): string | undefined {
  const path = resolve(dataDir);
  const kernel = KERNEL_FILE_SYSTEMS.find((k) => path === k || path.startsWith(`${k}/`));
  if (kernel) return `is under ${kernel}, a kernel file system where no directory can be made`;
  let existing = path;
  let found = entry(existing);
  while (!found) {
    existing = dirname(existing);
    found = entry(existing);
  }
  const subject = existing === path ? "is" : `cannot be created: ${existing} is`;
  if (!found.isDirectory()) return `${subject} a file, not a directory`;
  try {
    accessSync(existing, constants.W_OK | constants.X_OK);
  } catch {
    return `${subject} not writable for this user`;
  }
  return undefined;
}
