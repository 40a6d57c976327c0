import { Link } from 'react-router'
import type { Route } from './+types/home'
import { getDb } from '#app/db/database.server.ts'
import { currentAnnouncement, loadHomeBlocks, loadSlides } from '#app/content/home-page.server.ts'
import { memoContent } from '#app/cache/content-memo.server.ts'
import { Slider } from '#app/components/slider.tsx'
import { getFoundationInfo } from '#app/domain/foundation-details.server.ts'
import { listProgrammes } from '#app/content/programmes.server.ts'
import { ProgrammeCard } from '#app/components/programme-card.tsx'
import { formatPhone, todayInRiyadh } from '#app/text/format.ts'
import { PageTitle } from '#app/components/forms.tsx'
import { Announcement } from '#app/components/announcement.tsx'
import { VideoEmbed } from '#app/components/video-embed.tsx'
import { latestNews } from '#app/content/news-store.server.ts'
import { NewsCard } from '#app/components/news-card.tsx'

export async function loader() {
	const db = await getDb()
	// Read once per content change; the announcement also once per day, as its dates are days.
	const today = todayInRiyadh()
	return memoContent(`home:${today}`, async () => {
		const [info, blocks, announcement, programmes, slides, news] = await Promise.all([
			getFoundationInfo(db),
			loadHomeBlocks(db),
			currentAnnouncement(db),
			listProgrammes(db),
			loadSlides(db),
			// docs/product.md#news: the two latest published news.
			latestNews(db, 2),
		])
		return { name: info.name, blocks, announcement, programmes, slides, news }
	})
}

export default function Home({ loaderData }: Route.ComponentProps) {
	const { name, blocks, announcement, programmes, slides, news } = loaderData
	return (
		<>
			<PageTitle title="الصفحة الرئيسية" description={blocks.heroText || name} />
			{announcement ? <Announcement announcement={announcement} /> : null}
			<section className="bg-gradient-to-b from-brand-800 to-brand-900 text-white" aria-labelledby="hero-title">
				<div className="mx-auto grid max-w-7xl items-center gap-8 px-4 py-12 sm:py-16 lg:grid-cols-2">
					<div>
						<p className="font-semibold text-gold-100">{blocks.heroTitle}</p>
						<h1 id="hero-title" className="mt-2 text-3xl font-bold sm:text-5xl">
							{name}
						</h1>
						<p className="mt-5 max-w-3xl text-lg text-brand-50">{blocks.heroText}</p>
						<div className="mt-8 flex flex-wrap gap-3">
							<Link to="/apply" className="btn bg-white text-brand-900 hover:bg-brand-50">
								تقديم طلب دعم
							</Link>
							<Link to="/apply/status" className="btn border border-white/70 text-white hover:bg-brand-800">
								الاستعلام عن طلب
							</Link>
						</div>
					</div>
					{blocks.introVideo ? <VideoEmbed url={blocks.introVideo} caption="فيديو تعريفي بالمؤسسة" /> : null}
				</div>
			</section>

			<Slider slides={slides} />

			<section className="mx-auto grid max-w-7xl gap-4 px-4 py-12 md:grid-cols-3" aria-label="الرؤية والرسالة والقيم">
				<div className="rounded-xl border border-stone-200 bg-white p-5">
					<h2 className="text-xl font-bold text-brand-900">رؤيتنا</h2>
					<p className="mt-2 text-stone-700">{blocks.vision}</p>
				</div>
				<div className="rounded-xl border border-stone-200 bg-white p-5">
					<h2 className="text-xl font-bold text-brand-900">رسالتنا</h2>
					<p className="mt-2 text-stone-700">{blocks.mission}</p>
				</div>
				<div className="rounded-xl border border-stone-200 bg-white p-5">
					<h2 className="text-xl font-bold text-brand-900">قيمنا</h2>
					<ul className="mt-2 flex flex-wrap gap-2">
						{blocks.values.map((value) => (
							<li key={value} className="rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-800">
								{value}
							</li>
						))}
					</ul>
				</div>
			</section>

			<section className="mx-auto max-w-7xl px-4" aria-labelledby="goals-title">
				<h2 id="goals-title" className="text-2xl font-bold text-brand-900">
					أهدافنا
				</h2>
				<ol className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
					{blocks.goals.map((goal, index) => (
						<li key={goal} className="rounded-xl border border-gold-500/40 bg-gold-100 p-4">
							<span className="block text-2xl font-bold text-gold-700">{index + 1}</span>
							<span className="mt-1 block text-sm text-stone-800">{goal}</span>
						</li>
					))}
				</ol>
			</section>

			<section className="mx-auto max-w-7xl px-4 py-12" aria-labelledby="programmes-title">
				<h2 id="programmes-title" className="text-2xl font-bold text-brand-900">
					برامجنا
				</h2>
				<ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
					{programmes.map((programme) => (
						<li key={programme.slug}>
							<ProgrammeCard programme={programme} />
						</li>
					))}
				</ul>
			</section>

			<section className="mx-auto max-w-7xl px-4" aria-labelledby="news-title">
				<div className="flex flex-wrap items-center justify-between gap-3">
					<h2 id="news-title" className="text-2xl font-bold text-brand-900">
						آخر الأخبار
					</h2>
					<Link to="/news" className="link">
						جميع الأخبار
					</Link>
				</div>
				{news.length ? (
					<ul className="mt-6 grid gap-5 md:grid-cols-2">
						{news.map((item) => (
							<li key={item.id}>
								<NewsCard news={{ ...item, excerpt: undefined }} headingLevel={3} />
							</li>
						))}
					</ul>
				) : (
					<p className="mt-4 rounded-xl bg-white p-5 text-stone-700">لا توجد أخبار منشورة بعد.</p>
				)}
			</section>

			{blocks.videos.length ? (
				<section className="mx-auto max-w-7xl px-4 py-12" aria-labelledby="videos-title">
					<h2 id="videos-title" className="text-2xl font-bold text-brand-900">
						من أعمالنا
					</h2>
					<ul className="mt-6 grid gap-4 sm:grid-cols-2">
						{blocks.videos.map((video) => (
							<li key={video.url}>
								<VideoEmbed url={video.url} caption={video.caption} />
								<p className="mt-2 text-center font-semibold">{video.caption}</p>
							</li>
						))}
					</ul>
				</section>
			) : null}

			<section className="mx-auto mt-8 max-w-7xl px-4" aria-labelledby="contact-card-title">
				<div className="rounded-2xl border border-gold-500/40 bg-gold-100 p-6 sm:flex sm:items-center sm:justify-between">
					<div>
						<h2 id="contact-card-title" className="text-xl font-bold text-gold-700">
							للتواصل مع المدير التنفيذي المكلف
						</h2>
						<p className="mt-1 text-stone-800">{blocks.director.name}</p>
						{blocks.socialTimeline ? (
							<a href={blocks.socialTimeline} className="link mt-1 inline-block" rel="noopener noreferrer" target="_blank">
								تابع آخر أخبارنا على منصات التواصل<span className="sr-only"> (يفتح في نافذة جديدة)</span>
							</a>
						) : null}
					</div>
					<p className="mt-4 flex flex-wrap gap-3 sm:mt-0">
						<a href={`tel:${formatPhone(blocks.director.phone)}`} className="btn-primary" dir="ltr">
							{formatPhone(blocks.director.phone)}
						</a>
						<a href={`mailto:${blocks.director.email}`} className="btn-secondary">
							{blocks.director.email}
						</a>
					</p>
				</div>
			</section>
		</>
	)
}
