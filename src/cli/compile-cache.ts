/**
 * Node's on-disk cache of compiled code (in the system's temporary directory): a restart reads
 * the bytecode of the modules the command loads instead of compiling them again. Imported first
 * by main.ts, so that it covers every module loaded after it; NODE_DISABLE_COMPILE_CACHE=1 turns
 * it off.
 */
import module from "node:module";

module.enableCompileCache?.();
