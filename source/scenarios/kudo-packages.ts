/**
 * The KUDO operator packages the scenarios install, from kudobuilder/operators@6f7fbeca (see
 * shared/examples/operatorversion-*.yaml): tasks, parameters and plans as the CLI converts them.
 */
import type {KudoPackage, KudoPhaseDef, KudoStepDef} from './kudo-builders.js';

const step = (name: string, ...tasks: string[]): KudoStepDef => ({name, tasks: tasks.length > 0 ? tasks : [name]});
const serial = (name: string, ...steps: KudoStepDef[]): KudoPhaseDef => ({name, strategy: 'serial', steps});
const parallel = (name: string, ...steps: KudoStepDef[]): KudoPhaseDef => ({name, strategy: 'parallel', steps});
const apply = (name: string, ...resources: string[]) => ({name, kind: 'Apply' as const, spec: {resources}});
const remove = (name: string, ...resources: string[]) => ({name, kind: 'Delete' as const, spec: {resources}});

/** mysql 0.3.0 (app 5.7): deploy / backup / restore, each one serial phase. */
export const mysqlPackage: KudoPackage = {
	operator: 'mysql',
	version: '0.3.0',
	appVersion: '5.7',
	tasks: [
		apply('deploy', 'mysql.yaml'),
		apply('init', 'init.yaml'),
		remove('cleanup', 'init.yaml'),
		apply('pv', 'backup-pv.yaml'),
		apply('backup', 'backup.yaml'),
		remove('backup-cleanup', 'backup.yaml'),
		apply('restore', 'restore.yaml'),
		remove('restore-cleanup', 'restore.yaml'),
	],
	parameters: [
		{
			displayName: 'BackupFile',
			name: 'BACKUP_FILE',
			description: 'Filename to save the backups to',
			required: true,
			default: 'backup.sql',
			trigger: 'backup',
			immutable: false,
		},
		{name: 'PASSWORD', required: true, default: 'password', immutable: false},
		{
			name: 'RESTORE_FILE',
			description: 'Filename to restore the db from',
			required: true,
			default: 'backup.sql',
			trigger: 'restore',
			immutable: false,
		},
		{name: 'STORAGE', description: 'Size of volume to store MySQL data', required: true, default: '1Gi', immutable: false},
	],
	plans: {
		deploy: {strategy: 'serial', phases: [serial('deploy', step('deploy'), step('init'), step('cleanup'))]},
		backup: {strategy: 'serial', phases: [serial('backup', step('pv'), step('backup'), step('cleanup', 'backup-cleanup'))]},
		restore: {strategy: 'serial', phases: [serial('restore', step('restore'), step('cleanup', 'restore-cleanup'))]},
	},
};

/**
 * zookeeper 0.3.3 (app 3.6.2). Upstream's parallel phase `zookeeper` has a single step applying `infra` and
 * `app`; here its resources are split over three steps so the demo shows a parallel phase doing three things
 * at once. The serial `validation` phase and the other plans are upstream's.
 */
export const zookeeperPackage: KudoPackage = {
	operator: 'zookeeper',
	version: '0.3.3',
	appVersion: '3.6.2',
	tasks: [
		apply('config', 'bootstrap.sh.yaml', 'healthcheck.sh.yaml'),
		apply('services', 'services.yaml', 'pdb.yaml'),
		apply('app', 'statefulset.yaml'),
		apply('validation', 'validation.yaml'),
		remove('validation-cleanup', 'validation.yaml'),
		{name: 'not-allowed', kind: 'Dummy', spec: {}},
	],
	parameters: [
		{
			displayName: 'Node Count',
			name: 'NODE_COUNT',
			description: 'Number of nodes spun up for Zookeeper',
			required: true,
			default: '3',
			immutable: false,
		},
		{name: 'MEMORY', description: 'Amount of memory to provide to Zookeeper pods', required: true, default: '1024Mi', immutable: false},
		{name: 'CPUS', description: 'Amount of cpu to provide to Zookeeper pods', required: true, default: '250m', immutable: false},
		{
			name: 'DISK_SIZE',
			description: 'Disk size for the Zookeeper servers',
			required: true,
			default: '5Gi',
			trigger: 'not-allowed',
			immutable: false,
		},
		{
			name: 'CLIENT_PORT',
			description: 'The port on which the Zookeeper process will listen for client requests.',
			required: true,
			default: '2181',
			immutable: false,
		},
	],
	plans: {
		deploy: {
			strategy: 'serial',
			phases: [
				parallel('zookeeper', step('config'), step('services'), step('app')),
				serial('validation', step('validation'), step('cleanup', 'validation-cleanup')),
			],
		},
		validation: {
			strategy: 'serial',
			phases: [serial('connection', step('connection', 'validation'), step('cleanup', 'validation-cleanup'))],
		},
		'not-allowed': {strategy: 'serial', phases: [serial('not-allowed', step('not-allowed'))]},
	},
};
