/** parseArgs results taken apart for the parse-args tests: the environments they parse in, options or the error. */
import type {Options, ParseResult} from '../../source/cli/parse-args.js';

export const tty = {stdoutIsTTY: true, env: {}};
export const pipe = {stdoutIsTTY: false, env: {}};

export function options(result: ParseResult): Options {
	if (result.kind !== 'run') {
		throw new Error(`expected options, got ${JSON.stringify(result)}`);
	}

	return result.options;
}

export function errorOf(result: ParseResult): string {
	if (result.kind !== 'error') {
		throw new Error(`expected an error, got ${JSON.stringify(result)}`);
	}

	return result.message;
}
