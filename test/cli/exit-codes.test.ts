import {describe, expect, it} from 'vitest';
import {describeError, onceExitCode} from '../../source/cli/describe-error.js';
import {exitCodes} from '../../source/core/exit-codes.js';
import {InputError} from '../../source/sources/file-source.js';
import {TargetError} from '../../source/model/targets.js';
import {backupDeferFailed, mysqlDeploying} from '../helpers/plan-objects.js';

describe('exit codes', () => {
	it('are the documented numbers', () => {
		expect(exitCodes).toEqual({ok: 0, failed: 1, usage: 2, timedOut: 3, cluster: 4, interrupted: 130, outputClosed: 141});
	});

	it('after drawing once: 1 when any object failed, else 0', () => {
		expect(onceExitCode([mysqlDeploying])).toBe(0);
		expect(onceExitCode([mysqlDeploying, backupDeferFailed])).toBe(1);
		expect(onceExitCode([])).toBe(0);
	});
});

describe('describeError', () => {
	it('keeps the code of errors that know it', () => {
		expect(describeError(new InputError('x.yaml: no KUDO Instance or Kanister ActionSet found'))).toEqual({message: 'x.yaml: no KUDO Instance or Kanister ActionSet found', exitCode: 2});
		expect(describeError(new TargetError('invalid target "x"')).exitCode).toBe(2);
		expect(describeError(Object.assign(new Error('KUDO is not installed in this cluster: no instances.kudo.dev'), {exitCode: 4}))).toEqual({
			message: 'KUDO is not installed in this cluster: no instances.kudo.dev',
			exitCode: 4,
		});
	});

	it('reports anything unexpected as one clean line with exit 2', () => {
		const error = new TypeError('Cannot read properties of undefined (reading \'x\')\n    at f (file.js:1:2)');
		expect(describeError(error)).toEqual({message: 'Cannot read properties of undefined (reading \'x\')', exitCode: 2});
		expect(describeError('a string')).toEqual({message: 'a string', exitCode: 2});
		expect(describeError(undefined).exitCode).toBe(2);
		expect(describeError(new Error('\u001B]0;title\u0007boom')).message).toBe('boom');
		expect(describeError(Object.assign(new Error('x'), {exitCode: 0})).exitCode).toBe(2);
	});
});
