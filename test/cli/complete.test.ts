/**
 * The completion engine: words typed so far → candidates and Cobra's directive. The cluster is a stub that
 * records the scope it was asked about.
 */
import {describe, expect, it} from 'vitest';
import {complete, formatCompletion, type TargetScope} from '../../source/cli/complete.js';

const scenarioNames = ['tour', 'mysql-deploy', 'many'];

async function run(args: string[], targets = ['instance/mysql-instance', 'actionset/backup-x']): Promise<{candidates: readonly string[]; directive: number; asked: TargetScope[]}> {
	const asked: TargetScope[] = [];
	const result = await complete(args, {
		scenarioNames,
		listTargets: async scope => {
			asked.push(scope);
			return targets;
		},
	});
	return {...result, asked};
}

describe('complete', () => {
	it.each([
		[[''], ['demo', 'replay', 'version', 'completion', 'instance/', 'actionset/', 'instance/mysql-instance', 'actionset/backup-x'], 4],
		[['d'], ['demo'], 4],
		[['inst'], ['instance/', 'instance/mysql-instance'], 4],
		[['instance/'], ['instance/', 'instance/mysql-instance'], 4],
		[['actionset/b'], ['actionset/backup-x'], 4],
		[['instance/a', ''], ['instance/', 'actionset/', 'instance/mysql-instance', 'actionset/backup-x'], 4], // more targets, no subcommands
		[['-o', ''], ['tui', 'plain', 'json'], 4],
		[['--output', 'j'], ['json'], 4],
		[['-Ao', ''], ['tui', 'plain', 'json'], 4],
		[['-ojson', ''], ['demo', 'replay', 'version', 'completion', 'instance/', 'actionset/', 'instance/mysql-instance', 'actionset/backup-x'], 4],
		[['version', '-o', ''], ['plain', 'json'], 4],
		[['demo', '--scenario', 'm'], ['mysql-deploy', 'many'], 4],
		[['demo', '--scenario', ''], scenarioNames, 4],
		[['demo', '--notify', ''], ['auto', 'always', 'never'], 4],
		[['--notify', 'a'], ['auto', 'always'], 4],
		[['--no-h'], ['--no-history'], 4],
		[['-f', ''], [], 0], // file names: the shell's own completion
		[['--kubeconfig', ''], [], 0],
		[['-n', ''], [], 4],
		[['completion', ''], ['bash', 'zsh', 'fish'], 4],
		[['completion', 'bash', ''], [], 4],
		[['demo', ''], [], 4],
		[['-f', 'x.yaml', ''], [], 4], // files are read, not watched: no targets
		[['--', ''], ['instance/', 'actionset/', 'instance/mysql-instance', 'actionset/backup-x'], 4],
		[['replay', ''], [], 0], // the recording: the shell's file names
		[['replay', 'r.ndjson', ''], [], 4],
		[['demo', '--record', ''], [], 0],
	])('%j → %j', async (args, candidates, directive) => {
		const result = await run(args);
		expect(result.candidates).toEqual(candidates.filter(c => c.startsWith(args.at(-1)!)));
		expect(result.directive & ~2).toBe(directive);
	});

	it('asks for no space after a bare kind prefix', async () => {
		expect((await run(['act'], [])).directive).toBe(4 | 2);
		expect((await run(['act'])).directive).toBe(4);
		expect((await run(['actionset/b'])).directive).toBe(4);
	});

	it('offers the flags that belong to the command', async () => {
		const cluster = (await run(['--'.slice(0, 1)])).candidates;
		expect(cluster).toEqual(expect.arrayContaining(['--file', '-f', '--output', '-o', '--wait', '--no-color', '--kubeconfig', '-n', '-A', '--version']));
		expect(cluster).not.toContain('--scenario');
		expect(cluster).not.toContain('--color');
		const demo = (await run(['demo', '--'])).candidates;
		expect(demo).toEqual(expect.arrayContaining(['--scenario', '--speed', '--loop', '--wait']));
		expect(demo).not.toContain('--kubeconfig');
		expect(demo.every(c => c.startsWith('--'))).toBe(true);
		expect((await run(['version', '-'])).candidates).toEqual(['--output', '-o']);
		const replay = (await run(['replay', 'r.ndjson', '--'])).candidates;
		expect(replay).toEqual(expect.arrayContaining(['--speed', '--from', '--wait', '--output']));
		expect(replay).not.toContain('--record');
		expect(replay).not.toContain('--kubeconfig');
		expect(demo).not.toContain('--from');
		expect(cluster).toContain('--record');
		expect((await run(['--ti'])).candidates).toEqual(['--timeout']);
	});

	it('lists targets in the scope given by the cluster flags already typed', async () => {
		expect((await run(['--kubeconfig', '/k', '--context', 'prod', '-n', 'db', 'instance/'])).asked).toEqual([{kubeconfig: '/k', context: 'prod', namespace: 'db'}]);
		expect((await run(['--namespace=ops', '--context=c', ''])).asked).toEqual([{kubeconfig: undefined, context: 'c', namespace: 'ops'}]);
		expect((await run(['demo', ''])).asked).toEqual([]);
		expect((await run(['-o', ''])).asked).toEqual([]);
	});

	it('prints candidates one a line, then the directive', () => {
		expect(formatCompletion({candidates: ['a', 'b'], directive: 4})).toBe('a\nb\n:4\n');
		expect(formatCompletion({candidates: [], directive: 0})).toBe(':0\n');
	});
});

describe('complete --plan', () => {
	it('offers the plans of the named Instances\' OperatorVersions, asked in the command line\'s scope', async () => {
		const asked: Array<{scope: TargetScope; instances: readonly string[]}> = [];
		const result = await complete(['-n', 'db', 'instance/mysql', '--wait', '--plan', 'b'], {
			scenarioNames,
			listTargets: async () => [],
			listPlans: async (scope, instances) => {
				asked.push({scope, instances});
				return ['backup', 'deploy', 'restore'];
			},
		});
		expect(result).toEqual({candidates: ['backup'], directive: 4});
		expect(asked).toEqual([{scope: {kubeconfig: undefined, context: undefined, namespace: 'db'}, instances: ['mysql']}]);
	});

	it('without a cluster to ask: nothing, and no file names', async () => {
		expect(await complete(['--plan', ''], {scenarioNames, listTargets: async () => []})).toEqual({candidates: [], directive: 4});
	});
});
