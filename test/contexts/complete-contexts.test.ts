/** Completion of several contexts: `--context NAME`, `NAME:` prefixes and the targets of one context. */
import {describe, expect, it} from 'vitest';
import {complete, type TargetScope} from '../../source/cli/complete.js';

async function run(args: string[]): Promise<{candidates: readonly string[]; directive: number; asked: TargetScope[]}> {
	const asked: TargetScope[] = [];
	const result = await complete(args, {
		scenarioNames: [],
		listTargets: async scope => {
			asked.push(scope);
			return scope.context === 'dr' ? ['actionset/restore-x'] : ['actionset/backup-x'];
		},
		// A name with a colon (an EKS ARN) or a shell character is never offered.
		listContexts: () => ['prod', 'dr', 'arn:aws:eks:x:1:cluster/c', 'a b', 'kind-kind'],
	});
	return {...result, asked};
}

describe('completing contexts', () => {
	it.each<[string[], string[], number]>([
		[['--context', ''], ['prod', 'dr', 'kind-kind'], 4],
		[['--context', 'prod', '--context', 'd'], ['dr'], 4],
		[['pr'], ['prod:'], 4 | 2],
		[['d'], ['demo', 'dr:'], 4],
		[['dr:'], ['dr:instance/', 'dr:actionset/', 'dr:actionset/restore-x'], 4],
		[['dr:a'], ['dr:actionset/', 'dr:actionset/restore-x'], 4],
		[['dr:i'], ['dr:instance/'], 4 | 2],
		[['--all-c'], ['--all-contexts'], 4],
		[['replay', '--all-c'], [], 4],
	])('%j → %j', async (args, candidates, directive) => {
		const result = await run(args);
		expect(result.candidates).toEqual(candidates);
		expect(result.directive).toBe(directive);
	});

	it('one context: no prefix is offered', async () => {
		const result = await complete([''], {scenarioNames: [], listTargets: async () => [], listContexts: () => ['only']});
		expect(result.candidates).not.toContain('only:');
	});

	it('a context prefix asks that context for its targets', async () => {
		const {asked} = await run(['--kubeconfig', 'k', '-n', 'ns', 'dr:']);
		expect(asked).toEqual([{kubeconfig: 'k', context: 'dr', namespace: 'ns'}]);
	});
});
