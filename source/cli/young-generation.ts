/**
 * Keeps V8's young generation (where new objects are allocated) at about 16 MiB (one doubling past it at most:
 * growth is turned off after a GC). V8 grows it while much survives a scavenge — a first LIST of 10 000 objects
 * does — up to 64 MiB (Node 26) or 128 MiB (Node 24) on a 64-bit Node
 * without pointer compression, and rarely gives it back. `--max-semi-space-size` would cap it, but only on Node's
 * command line (NODE_OPTIONS, or a shebang with arguments, which `env` does not take everywhere); from inside the
 * program only the growth factor can still be changed (`--semi-space-growth-factor`, read by V8 each time it grows
 * the space: src/heap/new-spaces.cc in v8/v8). After each garbage collection: growth on (V8's default factor 2)
 * while the space is at most half the limit, off (factor 1) above, since one step may double it. (V8 14 was seen
 * growing it from 24 to 39 MiB with growth off; below 16 MiB it stays put.) With a 16 MiB young generation the
 * frame bench cost the same CPU per frame as with 128 MiB; with 2 MiB (growth off from the start) a third more.
 * Measured (commit a1d0a4d: the watch bench's 10 000 objects, `npm run bench -- --only watch --objects 10000`, its
 * base and head built side by side): RSS 269 → 208 MiB settled, 275 → 213 MiB after 100 updates/s, Node 26.
 * test/cli/young-generation.test.ts checks the cap holds. Listed in docs/interventions.md. The npm bin now starts the
 * CLI with `--max-semi-space-size` where it can (semi-space-exec.ts); then this cap is not started (cli.tsx).
 */
import {PerformanceObserver} from 'node:perf_hooks';
import v8 from 'node:v8';

export const youngGenerationLimitBytes = 16 * 1024 * 1024;

/** V8's growth factor for a young generation of `size` bytes that should stay under `limit`. */
export function growthFactor(size: number, limit: number): 1 | 2 {
	return size * 2 > limit ? 1 : 2;
}

function youngGenerationSize(): number {
	return v8.getHeapSpaceStatistics().find(s => s.space_name === 'new_space')?.space_size ?? 0;
}

/** Start capping (the CLI's process only: a library leaves its host's heap alone); returns a stop function. */
export function capYoungGeneration(limit = youngGenerationLimitBytes): () => void {
	let factor = 2;
	const observer = new PerformanceObserver(() => {
		const next = growthFactor(youngGenerationSize(), limit);
		if (next !== factor) {
			factor = next;
			v8.setFlagsFromString(`--semi-space-growth-factor=${next}`);
		}
	});
	observer.observe({entryTypes: ['gc']});
	return () => {
		observer.disconnect();
	};
}
