/**
 * Several kubeconfig contexts in one run: the pure rules, as tables. Targets with a `CONTEXT:` prefix, which
 * context gets which targets, object keys that keep two clusters apart, how the contexts' states fold into the
 * run's, and how exit codes combine (worst wins, in the README table's order).
 */
import {describe, expect, it} from 'vitest';
import {exitCodes, worstExitCode} from '../../source/core/exit-codes.js';
import {planContexts, type ContextInput} from '../../source/model/context-targets.js';
import {objectKey, parseObjectKey, qualifiedName, shownObjectKey} from '../../source/model/plan-tree.js';
import {parseTarget, TargetError, type Target} from '../../source/model/targets.js';
import {foldContexts, type ContextProgress, type RunFold} from '../../source/sources/context-fold.js';
import {contextFailures, withContextFailures} from '../../source/state/context-results.js';
import type {ContextState} from '../../source/state/store.js';

describe('CONTEXT:kind/NAME targets', () => {
	it.each<[string, Target]>([
		['instance/mysql', {kind: 'Instance', name: 'mysql'}],
		['prod:instance/mysql', {kind: 'Instance', name: 'mysql', context: 'prod'}],
		['prod:inst/mysql', {kind: 'Instance', name: 'mysql', context: 'prod'}],
		['prod:instances/mysql', {kind: 'Instance', name: 'mysql', context: 'prod'}],
		['prod:instance.kudo.dev/mysql', {kind: 'Instance', name: 'mysql', context: 'prod'}],
		['prod:instances.kudo.dev/mysql', {kind: 'Instance', name: 'mysql', context: 'prod'}],
		['dr:actionset/restore-1', {kind: 'ActionSet', name: 'restore-1', context: 'dr'}],
		['dr:as/restore-1', {kind: 'ActionSet', name: 'restore-1', context: 'dr'}],
		['dr:actionsets/restore-1', {kind: 'ActionSet', name: 'restore-1', context: 'dr'}],
		['dr:actionset.cr.kanister.io/restore-1', {kind: 'ActionSet', name: 'restore-1', context: 'dr'}],
		['dr:actionsets.cr.kanister.io/restore-1', {kind: 'ActionSet', name: 'restore-1', context: 'dr'}],
		['DR:AS/restore-1', {kind: 'ActionSet', name: 'restore-1', context: 'DR'}],
		// An EKS context is an ARN: colons and a slash of its own. The last colon splits.
		['arn:aws:eks:eu-west-1:123:cluster/prod:instance/kafka', {kind: 'Instance', name: 'kafka', context: 'arn:aws:eks:eu-west-1:123:cluster/prod'}],
		['kind-kind:actionset/a', {kind: 'ActionSet', name: 'a', context: 'kind-kind'}],
	])('%s', (text, target) => {
		expect(parseTarget(text)).toEqual(target);
	});

	it.each<[string, RegExp]>([
		[':instance/mysql', /^missing context before ":" in ":instance\/mysql"/],
		['prod:', /^invalid target "prod:"/],
		['prod:mysql', /^invalid target "prod:mysql"/],
		['prod:pod/mysql', /^unknown kind "pod" in "prod:pod\/mysql"/],
		['prod:instance/', /^missing name in "prod:instance\/"/],
		['prod:instance/My_SQL', /^invalid name "My_SQL" in "prod:instance\/My_SQL"/],
		// Control sequences in what was typed never reach the message.
		['prod\u001B[31m:instance/x\u0007', /^invalid name "x" in "prod:instance\/x"/],
	])('%s is a usage error', (text, message) => {
		expect(() => parseTarget(text)).toThrow(TargetError);
		expect(() => parseTarget(text)).toThrow(message);
	});
});

const inst = (name: string, context?: string): Target => ({kind: 'Instance', name, ...(context === undefined ? {} : {context})});
const as = (name: string, context?: string): Target => ({kind: 'ActionSet', name, ...(context === undefined ? {} : {context})});

describe('which contexts, which targets', () => {
	it.each<[string, ContextInput, Array<[string, Target[]]>]>([
		['no context at all: the current one (an empty plan)', {named: [], targets: [inst('a')]}, []],
		['one --context', {named: ['prod'], targets: [inst('a')]}, [['prod', [inst('a')]]]],
		['a target without a context goes to every context', {named: ['prod', 'dr'], targets: [inst('a')]}, [['prod', [inst('a')]], ['dr', [inst('a')]]]],
		['CONTEXT: picks one', {named: ['prod', 'dr'], targets: [as('backup', 'prod'), as('restore', 'dr')]}, [['prod', [as('backup')]], ['dr', [as('restore')]]]],
		['both kinds of targets', {named: ['prod', 'dr'], targets: [inst('db'), as('restore', 'dr')]}, [['prod', [inst('db')]], ['dr', [inst('db'), as('restore')]]]],
		[
			'no --context: the contexts the targets name, in order',
			{named: [], targets: [as('restore', 'dr'), as('backup', 'prod'), as('x', 'dr')]},
			[['dr', [as('restore'), as('x')]], ['prod', [as('backup')]]],
		],
		['no targets: every context watches everything in scope', {named: ['prod', 'dr'], targets: []}, [['prod', []], ['dr', []]]],
		['a repeated --context counts once', {named: ['prod', 'prod', 'dr'], targets: []}, [['prod', []], ['dr', []]]],
		['--all-contexts: every context', {named: [], all: ['a', 'b', 'c'], targets: []}, [['a', []], ['b', []], ['c', []]]],
		['--all-contexts leaves out contexts that get no target', {named: [], all: ['a', 'b', 'c'], targets: [inst('x', 'b')]}, [['b', [inst('x')]]]],
	])('%s', (_name, input, expected) => {
		expect(planContexts(input).map(p => [p.context, p.targets])).toEqual(expected);
	});

	it.each<[string, ContextInput, RegExp]>([
		['a context not among --context', {named: ['prod'], targets: [inst('a', 'dr')]}, /^target dr:instance\/a names context dr, but the contexts watched are prod$/],
		['a context not in the kubeconfig', {named: [], all: ['prod'], targets: [inst('a', 'dr')]}, /^target dr:instance\/a names context dr, but the kubeconfig has no such context$/],
		[
			'a --context without a target while others have one',
			{named: ['prod', 'dr'], targets: [inst('a', 'prod')]},
			/^context dr has no target: name one as dr:instance\/NAME, or leave --context dr out$/,
		],
		['hostile names are sanitized', {named: ['p\u001B]0;x\u0007'], targets: [inst('a', 'q\u001B[2J')]}, /^target q:instance\/a names context q, but the contexts watched are p$/],
	])('%s: a usage error', (_name, input, message) => {
		expect(() => planContexts(input)).toThrow(TargetError);
		expect(() => planContexts(input)).toThrow(message);
	});
});

describe('object keys with a context', () => {
	it.each([
		[{kind: 'Instance', namespace: 'default', name: 'mysql'}, 'Instance/default/mysql', 'default/mysql'],
		[{kind: 'Instance', namespace: 'default', name: 'mysql', context: 'prod'}, 'prod:Instance/default/mysql', 'prod:default/mysql'],
		[{kind: 'ActionSet', namespace: 'kanister', name: 'r', context: 'arn:aws:eks:x:1:cluster/dr'}, 'arn:aws:eks:x:1:cluster/dr:ActionSet/kanister/r', 'arn:aws:eks:x:1:cluster/dr:kanister/r'],
		[{kind: 'Instance', namespace: '', name: 'file-object'}, 'Instance//file-object', 'file-object'],
	])('%j', (o, shown, qualified) => {
		const key = objectKey(o);
		expect(parseObjectKey(key)).toEqual(o);
		expect(shownObjectKey(key)).toBe(shown);
		expect(qualifiedName(o)).toBe(qualified);
	});

	it('the same namespace/name in two contexts are two keys, and neither is the key without a context', () => {
		const keys = new Set([undefined, 'prod', 'dr'].map(context => objectKey({kind: 'Instance', namespace: 'ns', name: 'a', ...(context === undefined ? {} : {context})})));
		expect(keys.size).toBe(3);
	});
});

describe('exit codes combine: worst wins, in the README table order', () => {
	it.each<[number[], number]>([
		[[], exitCodes.ok],
		[[exitCodes.ok, exitCodes.ok], exitCodes.ok],
		[[exitCodes.ok, exitCodes.failed], exitCodes.failed],
		[[exitCodes.failed, exitCodes.cluster], exitCodes.cluster],
		[[exitCodes.cluster, exitCodes.failed], exitCodes.cluster],
		[[exitCodes.timedOut, exitCodes.failed], exitCodes.timedOut],
		[[exitCodes.timedOut, exitCodes.cluster], exitCodes.cluster],
		[[exitCodes.usage, exitCodes.failed], exitCodes.usage],
		[[exitCodes.cluster, exitCodes.interrupted], exitCodes.interrupted],
		[[exitCodes.interrupted, exitCodes.outputClosed], exitCodes.outputClosed],
		[[-1, exitCodes.failed], exitCodes.failed],
	])('%j → %i', (codes, worst) => {
		expect(worstExitCode(codes)).toBe(worst);
	});
});

const live = {status: 'live'} as const;
const refused = (attempt: number) => ({status: 'reconnecting', attempt, lastError: 'connection refused'}) as const;
const ctx = (name: string, rest: Partial<ContextProgress>): ContextProgress => ({name, connection: {status: 'connecting'}, synced: false, ...rest});

describe('the run from its contexts', () => {
	it.each<[string, ContextProgress[], RunFold]>([
		['all live and listed', [ctx('a', {connection: live, synced: true}), ctx('b', {connection: live, synced: true})], {connection: live, synced: true}],
		['one still connecting holds the picture', [ctx('a', {connection: live, synced: true}), ctx('b', {})], {connection: {status: 'connecting'}, synced: false}],
		[
			'one unreachable does not hold the others, and names itself',
			[ctx('a', {connection: live, synced: true}), ctx('b', {connection: refused(3)})],
			{connection: {status: 'reconnecting', attempt: 3, lastError: 'b: connection refused'}, synced: true},
		],
		[
			'the most retried is the one named',
			[ctx('a', {connection: refused(2)}), ctx('b', {connection: refused(5)})],
			{connection: {status: 'reconnecting', attempt: 5, lastError: 'b: connection refused'}, synced: true},
		],
		['one that gave up is left out', [ctx('a', {connection: live, synced: true}), ctx('b', {fatal: {message: 'forbidden', exitCode: exitCodes.cluster}})], {connection: live, synced: true}],
		[
			'credentials pending, named',
			[ctx('a', {connection: live, synced: true}), ctx('b', {connection: {status: 'waiting-credentials', plugin: 'kubelogin', limitMs: 1000}})],
			{connection: {status: 'waiting-credentials', plugin: 'b: kubelogin', limitMs: 1000}, synced: false},
		],
		[
			'every context gave up: the run fails with the worst code and every reason',
			[ctx('a', {fatal: {message: 'bad', exitCode: exitCodes.failed}}), ctx('b', {fatal: {message: 'forbidden', exitCode: exitCodes.cluster}})],
			{connection: {status: 'connecting'}, synced: false, fatal: {exitCode: exitCodes.cluster, message: 'a: bad; b: forbidden'}},
		],
	])('%s', (_name, contexts, fold) => {
		expect(foldContexts(contexts)).toEqual(fold);
	});
});

const state = (name: string, rest: Partial<ContextState>): ContextState => ({name, connection: live, synced: true, ...rest});

describe("a run's result with its contexts' failures", () => {
	it.each<[string, ContextState[], boolean, {exitCode: number; message: string}, {exitCode: number; message: string}]>([
		['no failures: unchanged', [state('a', {}), state('b', {})], false, {exitCode: 0, message: 'done'}, {exitCode: 0, message: 'done'}],
		[
			'a context that gave up outweighs success',
			[state('a', {}), state('b', {fatal: {message: 'forbidden', exitCode: exitCodes.cluster}})],
			false,
			{exitCode: 0, message: 'a/x: COMPLETE'},
			{exitCode: 4, message: 'context b: forbidden\na/x: COMPLETE'},
		],
		['…and a failure', [state('b', {fatal: {message: 'forbidden', exitCode: exitCodes.cluster}})], false, {exitCode: 1, message: ''}, {exitCode: 4, message: 'context b: forbidden'}],
		[
			'an interruption outweighs it',
			[state('b', {fatal: {message: 'forbidden', exitCode: exitCodes.cluster}})],
			false,
			{exitCode: 130, message: 'interrupted'},
			{exitCode: 130, message: 'interrupted\ncontext b: forbidden'},
		],
		['unreachable counts only for a picture taken now', [state('b', {synced: false, connection: refused(2)})], false, {exitCode: 0, message: ''}, {exitCode: 0, message: ''}],
		[
			'--once: unreachable is a cluster error with its reason',
			[state('b', {synced: false, connection: refused(2)})],
			true,
			{exitCode: 0, message: ''},
			{exitCode: 4, message: 'context b: connection refused'},
		],
	])('%s', (_name, contexts, unreachable, result, combined) => {
		expect(withContextFailures(result, contextFailures(contexts, {unreachable}))).toEqual(combined);
	});
});
