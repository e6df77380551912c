import {describe, expect, it} from 'vitest';
import {parseTarget, TargetError} from '../../source/model/targets.js';

describe('parseTarget', () => {
	it.each([
		['instance/mysql-instance', 'Instance', 'mysql-instance'],
		['instances/mysql', 'Instance', 'mysql'],
		['inst/mysql', 'Instance', 'mysql'],
		['instances.kudo.dev/mysql', 'Instance', 'mysql'],
		['Instance/mysql', 'Instance', 'mysql'],
		['actionset/backup-glptq', 'ActionSet', 'backup-glptq'],
		['actionsets/backup', 'ActionSet', 'backup'],
		['as/backup', 'ActionSet', 'backup'],
		['actionset.cr.kanister.io/backup', 'ActionSet', 'backup'],
		['actionsets.cr.kanister.io/backup.v2', 'ActionSet', 'backup.v2'],
		['ActionSet/backup', 'ActionSet', 'backup'],
	])('%s → %s %s', (argument, kind, name) => {
		expect(parseTarget(argument)).toEqual({kind, name});
	});

	it.each([
		['mysql', 'invalid target "mysql": expected instance/NAME or actionset/NAME'],
		['pod/mysql', 'unknown kind "pod" in "pod/mysql": expected instance/NAME or actionset/NAME'],
		['instance/', 'missing name in "instance/": expected instance/NAME or actionset/NAME'],
		['instance/My_Name', 'invalid name "My_Name" in "instance/My_Name": names are lowercase letters, digits, \'-\' and \'.\''],
		['actionset/a/b', 'invalid name "a/b" in "actionset/a/b": names are lowercase letters, digits, \'-\' and \'.\''],
	])('rejects %s with one line', (argument, message) => {
		let caught: unknown;
		try {
			parseTarget(argument);
		} catch (error) {
			caught = error;
		}

		expect(caught).toBeInstanceOf(TargetError);
		expect((caught as TargetError).message).toBe(message);
		expect((caught as TargetError).exitCode).toBe(2);
	});

	it('says a name longer than 253 characters is too long, not that its characters are wrong', () => {
		expect(parseTarget(`instance/${'a'.repeat(253)}`).name).toHaveLength(253);
		expect(() => parseTarget(`instance/${'a'.repeat(254)}`)).toThrow(`name too long in "instance/${'a'.repeat(39)}…": 254 characters, at most 253`);
	});

	it('keeps hostile input out of the message', () => {
		expect(() => parseTarget('\u001B[2Jpod/x')).toThrow(/^unknown kind "[^\u001B]*"/);
	});
});
