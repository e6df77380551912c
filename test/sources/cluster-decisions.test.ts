import {describe, expect, it} from 'vitest';
import type {KubeFailure} from '../../source/kube/errors.js';
import type {Target} from '../../source/model/targets.js';
import {collectionsToWatch, onCollectionFailure, type Product} from '../../source/sources/cluster-decisions.js';

const instance = (name: string): Target => ({kind: 'Instance', name});
const actionSet = (name: string): Target => ({kind: 'ActionSet', name});

describe('collectionsToWatch', () => {
	const shape = (targets: Target[], selector?: string) =>
		collectionsToWatch(targets, selector).map(c => [c.kind, c.target?.name ?? '', c.fieldSelector ?? '', c.labelSelector ?? '']);

	it.each<[string, Target[], string | undefined, string[][]]>([
		['everything', [], undefined, [['Instance', '', '', ''], ['OperatorVersion', '', '', ''], ['ActionSet', '', '', ''], ['Blueprint', '', '', ''], ['Event', '', '', '']]],
		[
			'everything, with a selector on the targets\' kinds only',
			[],
			'app=db',
			[['Instance', '', '', 'app=db'], ['OperatorVersion', '', '', ''], ['ActionSet', '', '', 'app=db'], ['Blueprint', '', '', ''], ['Event', '', '', '']],
		],
		[
			'one Instance: its product only, Events of its name',
			[instance('mysql')],
			undefined,
			[['Instance', 'mysql', 'metadata.name=mysql', ''], ['OperatorVersion', '', '', ''], ['Event', '', 'involvedObject.name=mysql', '']],
		],
		['one ActionSet', [actionSet('backup-x')], undefined, [['ActionSet', 'backup-x', 'metadata.name=backup-x', ''], ['Blueprint', '', '', ''], ['Event', '', 'involvedObject.name=backup-x', '']]],
		[
			'two targets of both products: one collection each, all Events',
			[instance('a'), actionSet('b')],
			undefined,
			[['Instance', 'a', 'metadata.name=a', ''], ['OperatorVersion', '', '', ''], ['ActionSet', 'b', 'metadata.name=b', ''], ['Blueprint', '', '', ''], ['Event', '', '', '']],
		],
	])('%s', (_, targets, selector, want) => {
		expect(shape(targets, selector)).toEqual(want);
	});

	it('one kind asked for (planwatch actionsets): that kind, its supporting kind and Events only', () => {
		expect(collectionsToWatch([], undefined, ['ActionSet']).map(c => c.kind)).toEqual(['ActionSet', 'Blueprint', 'Event']);
		expect(collectionsToWatch([], 'app=db', ['Instance']).map(c => [c.kind, c.labelSelector ?? ''])).toEqual([['Instance', 'app=db'], ['OperatorVersion', ''], ['Event', '']]);
	});
});

describe('onCollectionFailure', () => {
	const failure = (kind: KubeFailure['kind'], message = `${kind} happened`): KubeFailure => ({kind, message});
	const none = new Set<Product>();

	it.each<[string, Parameters<typeof onCollectionFailure>, ReturnType<typeof onCollectionFailure>]>([
		[
			'CRD missing for a named target\'s product: fatal 4',
			[{kind: 'Instance', product: 'KUDO'}, failure('not-found'), [instance('a')], none],
			{action: 'fatal', message: 'not-found happened', exitCode: 4},
		],
		['CRD missing, nothing named needs it: drop the product', [{kind: 'Instance', product: 'KUDO'}, failure('not-found'), [], none], {action: 'drop-product'}],
		[
			'CRD missing for the second product too: fatal 4',
			[{kind: 'ActionSet', product: 'Kanister'}, failure('not-found'), [], new Set<Product>(['KUDO'])],
			{action: 'fatal', message: expect.stringMatching(/^neither KUDO nor Kanister is installed/) as string, exitCode: 4},
		],
		[
			'a named target\'s kind forbidden: fatal 4',
			[{kind: 'ActionSet', product: 'Kanister'}, failure('forbidden'), [actionSet('b')], none],
			{action: 'fatal', message: 'forbidden happened', exitCode: 4},
		],
		[
			'one product\'s main kind forbidden, the other readable: skip it with a note',
			[{kind: 'ActionSet', product: 'Kanister'}, failure('forbidden', 'no'), [], none],
			{action: 'skip-product', message: 'actionsets.cr.kanister.io not watched: no'},
		],
		[
			'the second product forbidden too: fatal 4 with its line',
			[{kind: 'Instance', product: 'KUDO'}, failure('forbidden', 'no'), [], {absent: none, forbidden: new Map<Product, string>([['Kanister', 'also no']])}],
			{action: 'fatal', message: 'no', exitCode: 4},
		],
		[
			'forbidden, the other not installed: fatal 4',
			[{kind: 'Instance', product: 'KUDO'}, failure('forbidden', 'no'), [], new Set<Product>(['Kanister'])],
			{action: 'fatal', message: 'no', exitCode: 4},
		],
		[
			'forbidden, the other not watched (planwatch instances): fatal 4',
			[{kind: 'Instance', product: 'KUDO'}, failure('forbidden', 'no'), [], {absent: none, watched: new Set<Product>(['KUDO', 'core'])}],
			{action: 'fatal', message: 'no', exitCode: 4},
		],
		[
			'not installed, the other forbidden: fatal 4 with the forbidden line',
			[{kind: 'Instance', product: 'KUDO'}, failure('not-found'), [], {absent: none, forbidden: new Map<Product, string>([['Kanister', 'no']])}],
			{action: 'fatal', message: 'no', exitCode: 4},
		],
		['a bad selector on the targets\' kind: fatal 2', [{kind: 'Instance', product: 'KUDO'}, failure('bad-request'), [], none], {action: 'fatal', message: 'bad-request happened', exitCode: 2}],
		['Events forbidden: go on without them', [{kind: 'Event', product: 'core'}, failure('forbidden', 'no'), [], none], {action: 'missing', message: 'events not watched: no'}],
		['Events 404 (core is never dropped): fatal soon', [{kind: 'Event', product: 'core'}, failure('not-found'), [], none], {action: 'fatal-soon', message: 'not-found happened', exitCode: 4}],
		['Blueprints unreachable: fatal soon', [{kind: 'Blueprint', product: 'Kanister'}, failure('unreachable'), [], none], {action: 'fatal-soon', message: 'unreachable happened', exitCode: 4}],
	])('%s', (_, args, want) => {
		expect(onCollectionFailure(...args)).toEqual(want);
	});
});
