// The benchmarks' peers, all from Debian's packages and all on this machine: nginx serving files (the
// limit of what a server can do with the same bytes), and a stock WordPress behind the same nginx
// through php-fpm and the local MariaDB. Each is started on a loopback port with its own config in a
// temporary directory, registered with bench-processes.ts, and stopped by its pid afterwards.
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { startService, type Service } from './bench-processes.ts'

/** A peer that cannot run here; the message says why in one line, with the fix when there is one. */
export class PeerUnavailable extends Error {}

const isRoot = () => process.getuid?.() === 0

// ——— Debian packages ———

function missingPackages(packages: readonly string[]): string[] {
	return packages.filter((name) => {
		const answer = spawnSync('dpkg-query', ['-W', '-f=${db:Status-Status}', name], { encoding: 'utf8' })
		return answer.status !== 0 || answer.stdout.trim() !== 'installed'
	})
}

/**
 * Installs the Debian packages of `packages` that are not installed yet (apt-get, no recommends),
 * or throws PeerUnavailable with the command to run. Services the packages start on their own are
 * the distribution's business: the benchmarks start their own instances.
 */
export function ensureDebianPackages(packages: readonly string[], purpose: string): void {
	const missing = missingPackages(packages)
	if (!missing.length) return
	const fix = `apt-get install -y --no-install-recommends ${missing.join(' ')}`
	if (!fs.existsSync('/usr/bin/apt-get') || !fs.existsSync('/usr/bin/dpkg-query'))
		throw new PeerUnavailable(`${purpose} needs Debian's ${missing.join(', ')}, and this machine has no apt-get: install them, or run the benchmark without its peers.`)
	if (!isRoot()) throw new PeerUnavailable(`${purpose} needs Debian's ${missing.join(', ')}: run \`sudo ${fix}\` once, or run the benchmark without its peers.`)
	console.log(`${purpose}: installing Debian's ${missing.join(', ')}…`)
	const install = () => spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
	let result = install()
	if (result.status !== 0 && /Unable to locate package|has no installation candidate/.test(result.stderr + result.stdout)) {
		// The package lists may never have been fetched on this machine.
		spawnSync('apt-get', ['update'], { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
		result = install()
	}
	if (result.status !== 0 || missingPackages(missing).length) {
		const why = `${result.stderr}\n${result.stdout}`
			.split('\n')
			.filter((line) => /^E:/.test(line))
			.join(' ')
		throw new PeerUnavailable(`${purpose}: \`${fix}\` failed${why ? ` (${why})` : ''}; fix that and run the benchmark again.`)
	}
}

/** The version a command prints for `args` (stderr or stdout), matched by `pattern`'s first group. */
export function versionOf(command: string, args: string[], pattern: RegExp): string {
	const answer = spawnSync(command, args, { encoding: 'utf8' })
	return `${answer.stderr ?? ''}${answer.stdout ?? ''}`.match(pattern)?.[1] ?? 'unknown'
}

/** Resolves once something accepts TCP connections on 127.0.0.1:`port`. */
export async function waitForPort(port: number, service: Service, timeoutMs = 15_000): Promise<void> {
	const deadline = Date.now() + timeoutMs
	for (;;) {
		if (service.exit) throw new Error(`${service.name} exited (code ${service.exit.code}) before listening on ${port}: ${service.log.slice(-5).join(' | ')}`)
		const open = await new Promise<boolean>((resolve) => {
			const socket = net.connect({ host: '127.0.0.1', port })
			socket.once('connect', () => {
				socket.destroy()
				resolve(true)
			})
			socket.once('error', () => resolve(false))
		})
		if (open) return
		if (Date.now() > deadline) throw new Error(`${service.name} did not listen on 127.0.0.1:${port} within ${timeoutMs / 1000} s`)
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
}

// ——— nginx ———

export const NGINX_PACKAGES = ['nginx', 'libnginx-mod-http-brotli-static', 'libnginx-mod-http-brotli-filter']
const MODULES = '/usr/lib/nginx/modules'

export function nginxBinary(): string {
	return fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx'
}

/** nginx's own brotli modules (Debian's libnginx-mod-http-brotli-*), when installed. */
export function brotliModules(): { static: string | undefined; filter: string | undefined } {
	const module = (name: string) => (fs.existsSync(path.join(MODULES, name)) ? path.join(MODULES, name) : undefined)
	return { static: module('ngx_http_brotli_static_module.so'), filter: module('ngx_http_brotli_filter_module.so') }
}

/** A string as an nginx config token: quoted, or refused when it holds what nginx would interpret. */
export function nginxQuote(value: string): string | undefined {
	if (/[$"\\\n\r]/.test(value)) return undefined
	return `"${value}"`
}

/**
 * Writes `dir`/nginx.conf (no daemon, pid file, logs and temp paths in `dir`, one worker by default
 * like the app's one process) with the given server blocks, starts nginx and waits for its ports.
 */
export async function startNginx(dir: string, options: { workers: number; servers: { port: number; block: string }[]; brotliFilter: boolean; http?: string[] }): Promise<Service> {
	const modules = brotliModules()
	const load = [modules.static, options.brotliFilter ? modules.filter : undefined].filter((module): module is string => module !== undefined)
	const conf = [
		...load.map((module) => `load_module ${module};`),
		'daemon off;',
		'master_process on;',
		`worker_processes ${options.workers};`,
		`pid ${path.join(dir, 'nginx.pid')};`,
		`error_log ${path.join(dir, 'nginx-error.log')} warn;`,
		// Debian's stock nginx runs its workers as www-data; without root there is no one to switch to.
		...(isRoot() ? ['user www-data;'] : []),
		'events { worker_connections 1024; }',
		'http {',
		'  access_log off;',
		'  sendfile on;',
		'  tcp_nopush on;',
		'  server_tokens off;',
		'  include /etc/nginx/mime.types;',
		'  default_type application/octet-stream;',
		...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${path.join(dir, `nginx-${kind}`)};`),
		...(options.http ?? []).map((line) => `  ${line}`),
		...options.servers.map((server) => `  server {\n    listen 127.0.0.1:${server.port};\n${server.block.replace(/^/gm, '    ')}\n  }`),
		'}',
		'',
	].join('\n')
	const confFile = path.join(dir, 'nginx.conf')
	fs.writeFileSync(confFile, conf)
	const binary = nginxBinary()
	const test = spawnSync(binary, ['-t', '-q', '-p', dir, '-c', confFile, '-e', path.join(dir, 'nginx-error.log')], { encoding: 'utf8' })
	if (test.status !== 0) throw new Error(`nginx refused its config: ${test.stderr.trim()}`)
	const service = startService('nginx', binary, ['-p', dir, '-c', confFile, '-e', path.join(dir, 'nginx-error.log')])
	for (const server of options.servers) await waitForPort(server.port, service)
	return service
}

// ——— php-fpm and WordPress ———

export const WORDPRESS_PACKAGES_FIRST = ['php-fpm', 'php-mysql']
// `php` (the metapackage) once php-fpm is in: otherwise apt satisfies WordPress's PHP with Apache's module.
export const WORDPRESS_PACKAGES = ['php', 'wordpress', 'wordpress-l10n', 'wordpress-theme-twentytwentythree']
const WORDPRESS_ROOT = '/usr/share/wordpress'
const WORDPRESS_CONTENT = '/var/lib/wordpress/wp-content'
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root' }

function phpFpmBinary(): string | undefined {
	const name = fs
		.readdirSync('/usr/sbin')
		.filter((entry) => /^php-fpm\d+(\.\d+)?$/.test(entry))
		.sort()
		.at(-1)
	return name && path.join('/usr/sbin', name)
}

/** php-fpm with Debian's stock pool (pm dynamic, 5 children at most) on a socket in `dir`. */
export async function startPhpFpm(dir: string): Promise<{ service: Service; socket: string; version: string }> {
	const binary = phpFpmBinary()
	if (!binary) throw new PeerUnavailable('php-fpm is not in /usr/sbin after installing php-fpm')
	const socket = path.join(dir, 'php-fpm.sock')
	const owner = isRoot() ? ['user = www-data', 'group = www-data', 'listen.owner = www-data', 'listen.group = www-data'] : []
	const conf = [
		'[global]',
		`pid = ${path.join(dir, 'php-fpm.pid')}`,
		`error_log = ${path.join(dir, 'php-fpm.log')}`,
		'daemonize = no',
		'[www]',
		...owner,
		`listen = ${socket}`,
		'listen.mode = 0660',
		// Debian's stock www pool, as the php-fpm package installs it.
		'pm = dynamic',
		'pm.max_children = 5',
		'pm.start_servers = 2',
		'pm.min_spare_servers = 1',
		'pm.max_spare_servers = 3',
		'',
	].join('\n')
	const confFile = path.join(dir, 'php-fpm.conf')
	fs.writeFileSync(confFile, conf)
	const service = startService('php-fpm', binary, ['--nodaemonize', '--fpm-config', confFile])
	const deadline = Date.now() + 15_000
	while (!fs.existsSync(socket)) {
		if (service.exit) throw new Error(`php-fpm exited (code ${service.exit.code}): ${service.log.slice(-5).join(' | ')}`)
		if (Date.now() > deadline) throw new Error('php-fpm did not open its socket within 15 s')
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
	return { service, socket, version: versionOf(binary, ['-v'], /PHP (\S+)/) }
}

function mariadb(sql: string): { ok: boolean; output: string } {
	const answer = spawnSync('mariadb', ['-h', MARIADB.host, '-P', String(MARIADB.port), '-u', MARIADB.user, '--batch', '--skip-column-names', '-e', sql], { encoding: 'utf8', timeout: 30_000 })
	if (answer.error) return { ok: false, output: answer.error.message }
	return { ok: answer.status === 0, output: `${answer.stdout}${answer.stderr}`.trim() }
}

/** The bench's WordPress: its database and the Debian config file that points at it, removed by tearDown. */
export interface WordPressSite {
	/** The name nginx passes as WORDPRESS_CONFIG, which picks Debian's per-site WordPress config file of that name. */
	configName: string
	database: string
	version: string
	locale: string
	theme: string
	mariadbVersion: string
	/** Paths on the site: its home (the latest posts), one post, one page. */
	paths: { home: string; post: string; page: string }
	tearDown(): void
}

interface InstallAnswer {
	posts: number[]
	page: number
	version: string
	locale: string
	theme: string
}

/** Twelve short news items in Arabic, in the voice of a charity's news page. */
const posts = [
	['توزيع السلال الغذائية على الأسر المستفيدة', 'وزعت المؤسسة السلال الغذائية على الأسر المسجلة لديها في أحياء المدينة، بمشاركة فريق من المتطوعين.'],
	['إطلاق برنامج ترميم المنازل لعام جديد', 'أعلنت المؤسسة بدء استقبال طلبات ترميم المنازل للأسر ذات الدخل المحدود، وفق معايير معلنة.'],
	['توقيع اتفاقية شراكة مع جمعية خيرية', 'وقعت المؤسسة اتفاقية تعاون لتنفيذ برامج مشتركة تخدم المستفيدين في المنطقة.'],
	['حملة كسوة الشتاء', 'نفذت المؤسسة حملة لتوزيع الملابس الشتوية والبطانيات على الأسر المحتاجة قبل دخول فصل البرد.'],
	['دعم الحالات المرضية', 'قدمت المؤسسة دعماً لعدد من الحالات المرضية لتغطية تكاليف العلاج والأجهزة الطبية.'],
	['لقاء مجلس الإدارة الدوري', 'عقد مجلس إدارة المؤسسة اجتماعه الدوري واستعرض تقارير البرامج والخطة التشغيلية.'],
	['ورشة عمل عن الحوكمة', 'نظمت المؤسسة ورشة عمل لموظفيها عن متطلبات الحوكمة والشفافية في العمل الخيري.'],
	['برنامج الحقيبة المدرسية', 'وزعت المؤسسة الحقائب والأدوات المدرسية على أبناء الأسر المستفيدة مع بداية العام الدراسي.'],
	['إفطار صائم في رمضان', 'أقامت المؤسسة مشروع إفطار صائم طوال شهر رمضان بالتعاون مع المتطوعين والداعمين.'],
	['تكريم المتطوعين', 'كرمت المؤسسة المتطوعين المشاركين في برامجها تقديراً لجهودهم خلال العام.'],
	['زيارة ميدانية للمشاريع المدعومة', 'قام فريق المؤسسة بزيارة ميدانية للاطلاع على سير العمل في المشاريع المدعومة.'],
	['صدور التقرير السنوي', 'أصدرت المؤسسة تقريرها السنوي الذي يعرض إنجازات البرامج والقوائم المالية المعتمدة.'],
] as const

const paragraph = (text: string) => `<!-- wp:paragraph -->\n<p>${text}</p>\n<!-- /wp:paragraph -->`

/** Runs WordPress's own installer with the CLI, in Arabic, then replaces its sample content by the bench's. */
const INSTALLER = `<?php
$_SERVER['WORDPRESS_CONFIG'] = getenv('ATAA_WP_CONFIG');
$_SERVER['HTTP_HOST'] = getenv('ATAA_WP_HOST');
$_SERVER['SERVER_NAME'] = '127.0.0.1';
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';
define('WP_INSTALLING', true);
require_once '${WORDPRESS_ROOT}/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
$site = 'http://' . getenv('ATAA_WP_HOST');
wp_install('مؤسسة عطاء الخيرية', 'bench', 'bench@example.invalid', true, '', wp_generate_password(24), 'ar');
update_option('siteurl', $site);
update_option('home', $site);
foreach (get_posts(['post_type' => ['post', 'page'], 'post_status' => 'any', 'numberposts' => -1]) as $sample) wp_delete_post($sample->ID, true);
$content = json_decode(file_get_contents(getenv('ATAA_WP_CONTENT')), true);
$ids = [];
foreach ($content['posts'] as $post) {
	$id = wp_insert_post(['post_type' => 'post', 'post_status' => 'publish', 'post_title' => $post['title'], 'post_content' => $post['content'], 'post_date' => $post['date']], true);
	if (is_wp_error($id)) { fwrite(STDERR, $id->get_error_message()); exit(1); }
	$ids[] = $id;
}
$page = wp_insert_post(['post_type' => 'page', 'post_status' => 'publish', 'post_title' => $content['page']['title'], 'post_content' => $content['page']['content']], true);
if (is_wp_error($page)) { fwrite(STDERR, $page->get_error_message()); exit(1); }
echo json_encode(['posts' => $ids, 'page' => $page, 'version' => get_bloginfo('version'), 'locale' => get_option('WPLANG') ?: get_locale(), 'theme' => get_stylesheet()]);
`

/**
 * A stock WordPress for `host` (127.0.0.1:<port>, the nginx that will serve it): a new MariaDB
 * database, a per-site Debian WordPress config file, WordPress's own install in
 * Arabic with the default theme, and 12 Arabic posts and one page. Throws PeerUnavailable saying
 * why when it cannot be set up here.
 */
export function setUpWordPress(dir: string, host: string): WordPressSite {
	if (!fs.existsSync(path.join(WORDPRESS_ROOT, 'wp-settings.php'))) throw new PeerUnavailable(`WordPress is not in ${WORDPRESS_ROOT} after installing Debian's wordpress package`)
	const reach = mariadb('select version()')
	if (!reach.ok) {
		throw new PeerUnavailable(
			`MariaDB does not answer at ${MARIADB.host}:${MARIADB.port} as ${MARIADB.user} without a password (${reach.output.split('\n')[0]}); start it (e.g. \`service mariadb start\`) and allow that login`,
		)
	}
	const suffix = randomBytes(5).toString('hex')
	const configName = `ataa-bench-${suffix}`
	const database = `ataa_bench_wp_${suffix}`
	const configFile = `/etc/wordpress/config-${configName}.php`
	let created = false
	const tearDown = () => {
		if (created) {
			const drop = mariadb(`drop database if exists ${database}`)
			if (!drop.ok) console.error(`Cleanup: could not drop the WordPress database ${database}: ${drop.output}`)
			created = false
		}
		fs.rmSync(configFile, { force: true })
	}
	try {
		const create = mariadb(`create database ${database} character set utf8mb4 collate utf8mb4_unicode_ci`)
		if (!create.ok) throw new PeerUnavailable(`MariaDB refused to create a database for WordPress: ${create.output}`)
		created = true
		const keys = ['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT']
		const config = [
			'<?php',
			"// Written by Ataa's bench:http / bench:lighthouse for one run and removed at its end.",
			`define('DB_NAME', '${database}');`,
			`define('DB_USER', '${MARIADB.user}');`,
			"define('DB_PASSWORD', '');",
			`define('DB_HOST', '${MARIADB.host}:${MARIADB.port}');`,
			"define('DB_CHARSET', 'utf8mb4');",
			"define('DB_COLLATE', '');",
			...keys.map((key) => `define('${key}', '${randomBytes(32).toString('base64url')}');`),
			"$table_prefix = 'wp_';",
			"define('WP_DEBUG', false);",
			// The benchmark talks to this machine only: no update checks to wordpress.org.
			"define('WP_HTTP_BLOCK_EXTERNAL', true);",
			`define('WP_CONTENT_DIR', '${WORDPRESS_CONTENT}');`,
			'',
		].join('\n')
		fs.mkdirSync('/etc/wordpress', { recursive: true })
		fs.writeFileSync(configFile, config, { mode: 0o644 })
		const day = 24 * 60 * 60 * 1000
		const contentFile = path.join(dir, 'wordpress-content.json')
		fs.writeFileSync(
			contentFile,
			JSON.stringify({
				posts: posts.map(([title, lead], index) => ({
					title,
					content: [
						lead,
						'وتأتي هذه المبادرة ضمن برامج المؤسسة الهادفة إلى خدمة المستفيدين وتحسين جودة حياتهم، بالتعاون مع الشركاء والداعمين.',
						'وتشكر المؤسسة جميع من أسهم في إنجاح هذا العمل، وتدعو الراغبين في التطوع إلى التواصل معها.',
					]
						.map(paragraph)
						.join('\n\n'),
					date: new Date(Date.UTC(2026, 10, 1) - (posts.length - index) * 20 * day).toISOString().slice(0, 19).replace('T', ' '),
				})),
				page: {
					title: 'عن المؤسسة',
					content: ['مؤسسة خيرية سعودية تعنى بدعم الأسر المحتاجة وترميم المنازل ودعم الحالات المرضية والجمعيات.', 'تعمل المؤسسة وفق لائحة أساسية معتمدة، ويشرف عليها مجلس إدارة ولجان متخصصة.']
						.map(paragraph)
						.join('\n\n'),
				},
			}),
		)
		const installerFile = path.join(dir, 'wordpress-install.php')
		fs.writeFileSync(installerFile, INSTALLER)
		const install = spawnSync('php', ['-d', 'display_errors=stderr', installerFile], {
			encoding: 'utf8',
			timeout: 180_000,
			env: { ...process.env, ATAA_WP_CONFIG: configName, ATAA_WP_HOST: host, ATAA_WP_CONTENT: contentFile },
		})
		const json = install.stdout.slice(install.stdout.indexOf('{'))
		if (install.status !== 0 || !json.startsWith('{'))
			throw new PeerUnavailable(`WordPress's installer failed: ${(install.stderr || install.stdout || String(install.error)).trim().split('\n').slice(-3).join(' ')}`)
		const answer = JSON.parse(json) as InstallAnswer
		if (answer.posts.length !== posts.length) throw new PeerUnavailable(`WordPress's installer made ${answer.posts.length} posts, not ${posts.length}`)
		return {
			configName,
			database,
			version: answer.version,
			locale: answer.locale,
			theme: answer.theme,
			mariadbVersion: reach.output.split('\n')[0] ?? 'unknown',
			paths: { home: '/', post: `/?p=${answer.posts.at(-1)}`, page: `/?page_id=${answer.page}` },
			tearDown,
		}
	} catch (error) {
		tearDown()
		throw error
	}
}

/** The nginx server block for WordPress: the example the Debian package documents, on php-fpm's socket. */
export function wordpressServerBlock(site: WordPressSite, socket: string, compression: string): string {
	return [
		`root ${WORDPRESS_ROOT};`,
		'index index.php;',
		compression,
		'location / { try_files $uri $uri/ /index.php?$args; }',
		`location ~ ^/wp-content/(.*)$ { alias ${WORDPRESS_CONTENT}/$1; }`,
		'location ~ \\.php$ {',
		'  include /etc/nginx/fastcgi_params;',
		// Debian's fastcgi_params passes HTTP_HOST as $host, without the port: on a port other than 80,
		// WordPress would redirect every page to itself (its canonical URL has the port).
		'  fastcgi_param HTTP_HOST $host:$server_port;',
		'  fastcgi_param SCRIPT_FILENAME $request_filename;',
		`  fastcgi_param WORDPRESS_CONFIG ${site.configName};`,
		'  fastcgi_index index.php;',
		'  fastcgi_intercept_errors on;',
		`  fastcgi_pass unix:${socket};`,
		'}',
		'location ~* \\.(js|css|png|jpg|jpeg|gif|ico)$ { expires max; log_not_found off; }',
	].join('\n')
}

/** The MariaDB server's pids (its CPU is part of WordPress's cost). */
export const MARIADB_NAMES = ['mariadbd', 'mysqld']
