/**
 * The SEA config scripts/release.mjs hands `node --build-sea` (nodejs.org/api/single-executable-applications.html).
 * `execArgv`: V8 reads the young generation's cap only when the heap is set up, so the executable starts with it
 * (and with two V8 worker threads), as the npm bin does by running Node again (source/cli/semi-space-exec.ts).
 * `execArgvExtension: "env"` (Node's default, written out): NODE_OPTIONS still adds flags, as for the npm bin.
 */
// Node (22.18+, and the pinned 26 that builds releases) strips the types of this one-import module itself.
import {execFlags} from '../../source/cli/semi-space-exec.ts';

export function seaConfig({main, executable, output, codeCache}) {
	return {
		main,
		mainFormat: 'module',
		executable,
		output,
		disableExperimentalSEAWarning: true,
		// A code cache is only valid on the platform that made it.
		useCodeCache: codeCache,
		useSnapshot: false,
		execArgv: [...execFlags],
		execArgvExtension: 'env',
	};
}
