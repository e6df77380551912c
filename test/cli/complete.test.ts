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
		[[''], ['demo', 'replay', 'version', 'completion', 'help', 'instances', 'actionsets', 'instance/', 'actionset/', 'instance/mysql-instance', 'actionset/backup-x'], 4],
		[['d'], ['demo'], 4],
		[['inst'], ['instances', 'instance/', 'instance/mysql-instance'], 4],
		[['instances', ''], ['mysql-instance'], 4], // a kind, then names of it (kubectl get instances <TAB>)
		[['as', '-n', 'prod', ''], ['backup-x'], 4],
		[['actionsets.cr.kanister.io', 'b'], ['backup-x'], 4],
		[['instance/'], ['instance/mysql-instance'], 4], // not `instance/` itself: it is typed already
		[['actionset/b'], ['actionset/backup-x'], 4],
		[['as/'], ['as/backup-x'], 4], // the kind word as typed: targets accept every one of them
		[['-n', 'prod', 'inst/m'], ['inst/mysql-instance'], 4],
		[['actionsets.cr.kanister.io/'], ['actionsets.cr.kanister.io/backup-x'], 4],
		[['instances.kudo.dev/'], ['instances.kudo.dev/mysql-instance'], 4],
		[['nosuch/'], [], 4],
		[['instance/a', ''], ['instance/', 'actionset/', 'instance/mysql-instance', 'actionset/backup-x'], 4], // more targets, no subcommands
		[['-o', ''], ['tui', 'plain', 'json'], 4],
		[['--output', 'j'], ['json'], 4],
		[['-Ao', ''], ['tui', 'plain', 'json'], 4],
		[['-ojson', ''], ['demo', 'replay', 'version', 'completion', 'help', 'instances', 'actionsets', 'instance/', 'actionset/', 'instance/mysql-instance', 'actionset/backup-x'], 4],
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
		expect((await run(['instance/a', 'actions'], [])).directive).toBe(4 | 2);
		// Typed in full, `actionset/` is not offered again (nothing else is there: no candidate at all).
		expect(await run(['actionset/'], [])).toMatchObject({candidates: [], directive: 4});
		// `act` may still become the kind word `actionsets`, which takes a space.
		expect((await run(['act'], [])).directive).toBe(4);
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

describe('complete: kubectl habits', () => {
	it('--output=<TAB> answers the values alone (Cobra), however the shell split the word', async () => {
		for (const args of [['--output='], ['--output', '=', ''], ['--output', '=']]) {
			expect((await run(args)).candidates).toEqual(['tui', 'plain', 'json']);
		}

		expect((await run(['--output=j'])).candidates).toEqual(['json']);
		expect((await run(['--output', '=', 'p'])).candidates).toEqual(['plain']);
		expect((await run(['version', '--output='])).candidates).toEqual(['plain', 'json']);
		expect((await run(['demo', '--scenario=m'])).candidates).toEqual(['mysql-deploy', 'many']);
	});

	it('-n <TAB> offers the cluster\'s namespaces, asked in the kubeconfig and context given', async () => {
		const asked: TargetScope[] = [];
		const context = {
			scenarioNames,
			listTargets: async () => [],
			listNamespaces: async (scope: TargetScope) => {
				asked.push(scope);
				return ['db', 'default', 'kube-system'];
			},
		};
		expect((await complete(['--context', 'prod', '-n', 'd'], context)).candidates).toEqual(['db', 'default']);
		expect((await complete(['--namespace=k'], context)).candidates).toEqual(['kube-system']);
		expect(asked).toEqual([{kubeconfig: undefined, context: 'prod'}, {kubeconfig: undefined, context: undefined}]);
	});

	it('describes flags, commands, kinds and values after a tab; targets and names bare', async () => {
		expect(formatCompletion(await run(['-o', '']))).toBe('tui\tinteractive tree (needs a terminal)\nplain\ttext: status changes, then the final tree\njson\tJSON (NDJSON while watching)\n:4\n');
		expect(formatCompletion(await run(['--wai']))).toBe('--wait\texit when the targets finish\n:4\n');
		expect(formatCompletion(await run(['-v', '']))).toBe('6\tone line per HTTP request\n9\talso stack traces\n:4\n');
		expect(formatCompletion(await run(['ins']))).toBe('instances\tKUDO Instances only\ninstance/\ta KUDO Instance\ninstance/mysql-instance\n:4\n');
		expect(formatCompletion(await run(['instance/']))).toBe('instance/mysql-instance\n:4\n');
		const scenarios = await complete(['demo', '--scenario', 't'], {scenarioNames, scenarioTitles: {tour: 'The default demo'}, listTargets: async () => []});
		expect(formatCompletion(scenarios)).toBe('tour\tThe default demo\n:4\n');
	});

	it('help <TAB> offers the commands that have a page', async () => {
		expect((await run(['help', ''])).candidates).toEqual(['demo', 'replay', 'version', 'completion', 'help']);
		expect((await run(['help', 'demo', ''])).candidates).toEqual([]);
	});

	it('--plan=<TAB> asks for plans as --plan <TAB> does', async () => {
		const result = await complete(['instance/mysql', '--wait', '--plan=d'], {scenarioNames, listTargets: async () => [], listPlans: async () => ['backup', 'deploy']});
		expect(result.candidates).toEqual(['deploy']);
	});
});
