import {describe, expect, it} from 'vitest';
import {outputFailure} from '../../source/cli/output-errors.js';

const errno = (code: string) => Object.assign(new Error(`write ${code}`), {code});

describe('outputFailure', () => {
	it('the reader left (EPIPE): the code the run had reached, else 141, and nothing said', () => {
		expect(outputFailure(errno('EPIPE'), undefined)).toEqual({exitCode: 141});
		expect(outputFailure(errno('EPIPE'), 0)).toEqual({exitCode: 0});
		expect(outputFailure(errno('EPIPE'), 1)).toEqual({exitCode: 1});
		expect(outputFailure(errno('EPIPE'), 3)).toEqual({exitCode: 3});
	});

	it('a terminal that hung up (EIO on a terminal) is a reader that left: SIGHUP still ends with 130', () => {
		expect(outputFailure(errno('EIO'), 130, true)).toEqual({exitCode: 130});
		expect(outputFailure(errno('EIO'), undefined, true)).toEqual({exitCode: 141});
		expect(outputFailure(errno('EIO'), 130, false)).toEqual({exitCode: 2, message: 'cannot write the output: input/output error'});
	});

	it('any other failed write is an output error: one line, exit 2, whatever the run reached', () => {
		expect(outputFailure(errno('ENOSPC'), undefined)).toEqual({exitCode: 2, message: 'cannot write the output: no space left on device'});
		expect(outputFailure(errno('ENOSPC'), 0)).toEqual({exitCode: 2, message: 'cannot write the output: no space left on device'});
		expect(outputFailure(errno('EIO'), 1)).toEqual({exitCode: 2, message: 'cannot write the output: input/output error'});
		expect(outputFailure(errno('EWHATEVER'), undefined)).toEqual({exitCode: 2, message: 'cannot write the output: EWHATEVER'});
		expect(outputFailure(new Error('odd'), undefined)).toEqual({exitCode: 2, message: 'cannot write the output: write failed'});
	});
});
