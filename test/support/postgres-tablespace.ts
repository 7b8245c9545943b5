/**
 * A tablespace in memory (tmpfs) for the test databases, when the PostgreSQL server runs on this
 * machine and this process can give it a directory there. Each test bank makes and drops a
 * database of some 600 files. On ext4, after thousands of such drops, a new file's inode is
 * searched for among recently deleted ones: on a machine with slow system calls a creation and
 * drop cost 620 ms of its CPU, 407 in memory (ten each, in turns; 2026-11-29). The databases
 * are the same PostgreSQL databases; only where their files live differs. The directory is named
 * after the boot, since tmpfs forgets it at a restart while the server's catalog does not. The
 * bench keeps its database on disk, as a bank's would be.
 */
import { chown, mkdir, readFile, stat } from "node:fs/promises";
import type pg from "pg";

type Admin = <T>(work: (client: pg.Client) => Promise<T>) => Promise<T>;

const MEMORY = "/dev/shm";

/** Names the tablespace after the machine's boot; undefined where there is no tmpfs to use. */
async function bootName(): Promise<string | undefined> {
  const [boot, memory] = await Promise.all([
    readFile("/proc/sys/kernel/random/boot_id", "utf8").catch(() => undefined),
    stat(MEMORY).catch(() => undefined),
  ]);
  return boot && memory?.isDirectory() ? boot.trim().replace(/-/g, "").slice(0, 12) : undefined;
}

/** A directory the server's own user owns, as CREATE TABLESPACE requires. */
async function directoryFor(client: pg.Client, location: string): Promise<void> {
  const { rows } = await client.query<{ data_directory: string }>("SHOW data_directory");
  const server = await stat(rows[0]!.data_directory);
  await mkdir(location, { recursive: true, mode: 0o700 });
  const own = await stat(location);
  if (own.uid !== server.uid) await chown(location, server.uid, server.gid);
}

async function ensure(client: pg.Client, name: string, location: string): Promise<void> {
  const { rows } = await client.query(
    "SELECT 1 FROM pg_tablespace WHERE spcname = $1 AND pg_tablespace_location(oid) = $2",
    [name, location]);
  if (rows.length > 0 && (await stat(location).catch(() => undefined))) return;
  await directoryFor(client, location);
  await client.query(`CREATE TABLESPACE ${name} LOCATION '${location}'`);
}

/**
 * The tablespace's name, made once per boot under an advisory lock (the suite's processes race
 * for it); undefined, and the server's default used, when it cannot be made here: a server on
 * another machine, a data directory this process cannot read, no right to hand the directory over.
 */
export async function memoryTablespace(admin: Admin): Promise<string | undefined> {
  const boot = await bootName();
  if (!boot) return undefined;
  const name = `psd2_test_${boot}`;
  const location = `${MEMORY}/psd2-bank-postgres-${boot}`;
  return admin(async (client) => {
    await client.query("SELECT pg_advisory_lock(hashtext('psd2_tablespace'))");
    try {
      await ensure(client, name, location);
      return name;
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('psd2_tablespace'))");
    }
  }).catch(() => undefined);
}
