import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {deletionOf, kudoCleanupFinalizer, readDeletion, type Deletion} from '../../source/model/deletion.js';

/* Whether an object's deletion has begun, since when, and which finalizers hold it (the wait rule's input). */

const object = (metadata: Record<string, unknown>): KubeObject => ({apiVersion: 'kudo.dev/v1beta1', kind: 'Instance', metadata} as KubeObject);

describe('readDeletion', () => {
	it.each<[string, Record<string, unknown>, Deletion | undefined]>([
		['no deletionTimestamp: not being deleted', {name: 'i', finalizers: [kudoCleanupFinalizer]}, undefined],
		['a null deletionTimestamp: not being deleted', {name: 'i', deletionTimestamp: null}, undefined],
		[
			'being deleted, held by KUDO\'s cleanup finalizer',
			{deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: [kudoCleanupFinalizer]},
			{since: '2026-01-01T00:00:00Z', finalizers: ['kudo.dev.instance.cleanup']},
		],
		['being deleted, no finalizers', {deletionTimestamp: '2026-01-01T00:00:00Z'}, {since: '2026-01-01T00:00:00Z', finalizers: []}],
		['an unreadable time: being deleted, since when unknown', {deletionTimestamp: 'soon', finalizers: 'not a list'}, {finalizers: []}],
		[
			'finalizers sanitized, the empty and non-string ones dropped',
			{deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['a\u001b[2Jb', '', 7, 'c']},
			{since: '2026-01-01T00:00:00Z', finalizers: ['ab', '7', 'c']},
		],
	])('%s', (_, metadata, want) => {
		expect(readDeletion(object(metadata))).toEqual(want);
	});

	it('keeps at most 20 finalizers', () => {
		const many = Array.from({length: 25}, (_, i) => `f${i}`);
		expect(readDeletion(object({deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: many}))?.finalizers).toEqual(many.slice(0, 20));
	});
});

describe('deletionOf', () => {
	it('is {deletion} to spread while the deletion has begun, else nothing', () => {
		expect(deletionOf(object({deletionTimestamp: '2026-01-01T00:00:00Z'}))).toEqual({deletion: {since: '2026-01-01T00:00:00Z', finalizers: []}});
		expect(deletionOf(object({name: 'i'}))).toEqual({});
	});
});
