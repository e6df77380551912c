/**
 * Node's on-disk compile cache (module.enableCompileCache, Node 22.1+) for the chunks the bin loads after its
 * entry: a cached chunk is deserialized instead of parsed and compiled again. It lives with the user's other
 * caches, `$XDG_CACHE_HOME/planwatch/compile-cache` (default `~/.cache/planwatch/compile-cache`), rather than in
 * Node's default under the temporary directory, which the system may empty at any boot. Node files each entry
 * under a directory named after its own version, architecture and V8 flags, keyed by the file's path and checked
 * against its content, so a new Node or a new planwatch never reads a stale entry. NODE_COMPILE_CACHE (another
 * directory) and NODE_DISABLE_COMPILE_CACHE=1 (none) are Node's own overrides and win. The cache is a
 * convenience: a directory that cannot be created or written costs only the speed-up, never the run.
 */
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';

export function compileCacheDir(env: Readonly<Record<string, string | undefined>>, home: string): string {
	// XDG Base Directory spec: a relative XDG_CACHE_HOME is invalid and must be ignored.
	const cache = env['XDG_CACHE_HOME'];
	const base = cache && path.isAbsolute(cache) ? cache : path.join(home, '.cache');
	return path.join(base, 'planwatch', 'compile-cache');
}

/** Turn the cache on for what is loaded from now on; every failure is ignored (Node reports, never throws). */
export function enableCompileCache(env: Readonly<Record<string, string | undefined>>): void {
	try {
		// Absent before Node 22.1: the bin then runs without a cache.
		if (typeof module.enableCompileCache === 'function') {
			module.enableCompileCache(compileCacheDir(env, os.homedir()));
		}
	} catch {
		// os.homedir() throws without a home directory or user entry: no cache.
	}
}
