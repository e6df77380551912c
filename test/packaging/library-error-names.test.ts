/**
 * The built library's errors keep their class names (esbuild's keepNames): minified, `String(error)` read
 * `ni: …` and `error.constructor.name` was `ni`.
 */
import {pathToFileURL} from 'node:url';
import {beforeAll, expect, it} from 'vitest';
import {buildBin, repoRoot} from '../helpers/run-bin.js';

beforeAll(buildBin);

it('a PlanwatchError from dist/index.js reads `PlanwatchError: …`', async () => {
	const library = (await import(pathToFileURL(`${repoRoot}dist/index.js`).href)) as {
		PlanwatchError: new (message: string, exitCode: number) => Error;
		waitForPlan: (options: object) => Promise<unknown>;
	};
	const error = new library.PlanwatchError('cannot reach the cluster', 4);
	expect(String(error)).toBe('PlanwatchError: cannot reach the cluster');
	expect(error.constructor.name).toBe('PlanwatchError');
	expect(error.name).toBe('PlanwatchError');
	// Importing the whole bundled library (client-node included) takes seconds on a loaded machine.
});
