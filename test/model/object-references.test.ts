import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {blueprintKey, namespacedName, operatorVersionKey, readsBlueprintsOf, runsOperatorVersion} from '../../source/model/object-references.js';
import {objectKey, parseObjectKey} from '../../source/model/plan-tree.js';

const object = (namespace: string | undefined, name: string | undefined, spec?: unknown): KubeObject => ({metadata: {namespace, name}, ...(spec === undefined ? {} : {spec})});

describe('namespacedName', () => {
	it.each([
		[object('ns', 'a'), 'ns/a'],
		[object(undefined, 'a'), '/a'],
		[{}, '/'],
	])('%j → %s', (o, key) => {
		expect(namespacedName(o)).toBe(key);
	});
});

describe('operatorVersionKey: the OperatorVersion an Instance runs', () => {
	it.each([
		['name only: the Instance namespace', object('kudo', 'mysql', {operatorVersion: {name: 'mysql-0.1.0'}}), 'kudo/mysql-0.1.0'],
		['explicit namespace wins', object('kudo', 'mysql', {operatorVersion: {name: 'mysql-0.1.0', namespace: 'ops'}}), 'ops/mysql-0.1.0'],
		['empty namespace: the Instance namespace', object('kudo', 'mysql', {operatorVersion: {name: 'v', namespace: ''}}), 'kudo/v'],
		['no reference', object('kudo', 'mysql'), 'kudo/'],
		['hostile types ignored', object('kudo', 'mysql', {operatorVersion: {name: 7, namespace: ['x']}}), 'kudo/'],
	])('%s', (_, instance, key) => {
		expect(operatorVersionKey(instance)).toBe(key);
	});

	it('runsOperatorVersion compares the reference with the OperatorVersion key', () => {
		const instance = object('kudo', 'mysql', {operatorVersion: {name: 'mysql-0.1.0'}});
		expect(runsOperatorVersion(instance, object('kudo', 'mysql-0.1.0'))).toBe(true);
		expect(runsOperatorVersion(instance, object('other', 'mysql-0.1.0'))).toBe(false);
		expect(runsOperatorVersion(instance, object('kudo', 'mysql-0.2.0'))).toBe(false);
	});
});

describe('Blueprints: looked up in the ActionSet namespace', () => {
	it.each([
		[object('kanister', 'backup-x'), 'mysql-bp', 'kanister/mysql-bp'],
		[object(undefined, 'backup-x'), 'mysql-bp', '/mysql-bp'],
	])('%j + %s → %s', (actionSet, name, key) => {
		expect(blueprintKey(actionSet, name)).toBe(key);
	});

	it.each([
		['same namespace', object('kanister', 'as'), object('kanister', 'bp'), true],
		['other namespace', object('kanister', 'as'), object('default', 'bp'), false],
	])('readsBlueprintsOf: %s', (_, actionSet, blueprint, reads) => {
		expect(readsBlueprintsOf(actionSet, blueprint)).toBe(reads);
	});
});

describe('parseObjectKey', () => {
	it.each([
		{kind: 'ActionSet', namespace: 'kanister', name: 'backup-x'},
		{kind: 'Instance', namespace: '', name: 'a.b'},
	])('inverts objectKey for %j', parts => {
		expect(parseObjectKey(objectKey(parts))).toEqual(parts);
	});
});
