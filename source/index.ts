/**
 * The library's entry (`import … from 'planwatch'`): checks the running Node before anything else is loaded, as
 * the bin does (source/bin.ts), so that an old Node gets the CLI's one line instead of a TypeError from deep inside
 * a bundled dependency. Static imports would be evaluated before the check; the library is therefore loaded with
 * a dynamic import, awaited at the top level, after it. See source/library.ts for the API.
 *
 * ```ts
 * import {waitForPlan, watchPlans} from 'planwatch';
 * const result = await waitForPlan({targets: ['instance/mysql-instance'], namespace: 'prod', timeout: '10m'});
 * if (result.exitCode !== 0) console.error(result.message);
 * ```
 */
import process from 'node:process';
import {unsupportedNodeMessage} from './cli/node-version.js';

const unsupported = unsupportedNodeMessage(process.versions.node);
if (unsupported !== undefined) {
	// The stack would only point at this check: the line says all there is to say.
	const error = new Error(`planwatch: ${unsupported}`);
	error.stack = error.message;
	throw error;
}

const library = await import('./library.js');

export const {waitForPlan, watchPlans, PlanwatchError} = library;
/** The error the library throws (watchPlans) with the CLI's exit code. */
export type PlanwatchError = import('./library.js').PlanwatchError;
export type * from './library.js';
