/**
 * The executable's entry: checks the running Node before anything else is loaded (cli.tsx and its bundled
 * dependencies need Node 22.19+ and fail on older ones with messages unrelated to the cause), then loads the
 * CLI. Static imports would be evaluated before this check; the CLI is therefore a dynamic import.
 */
import process from 'node:process';
import {unsupportedNodeMessage} from './cli/node-version.js';
import {exitCodes} from './core/exit-codes.js';

const unsupported = unsupportedNodeMessage(process.versions.node);
if (unsupported === undefined) {
	await import('./cli.js');
} else {
	process.stderr.write(`planwatch: ${unsupported}\n`);
	// exitCode, not exit(): the message must reach a pipe before the process ends.
	process.exitCode = exitCodes.usage;
}
