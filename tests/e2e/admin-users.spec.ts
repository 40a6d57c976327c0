import { addUser, expect, expectNoAxeViolations, fillUserForm, findUserRow, signIn, staffState, test, unique } from './utils.ts'

// `page` is the admin of auth.setup.ts. Users that sign in, are stopped or are renamed here are
// added by the test itself, so the stored admin session is never ended.
test.use({ storageState: staffState('admin') })

test('an admin adds a user: errors are explained, nothing is stored until valid, then the user can sign in', async ({ page, pageAs }) => {
	const email = `officer-${unique()}@e2e.test`
	await page.goto('/admin/users/new')
	await expect(page.getByRole('navigation', { name: 'مسار التنقل' }).getByRole('link', { name: 'لوحة التحكم' })).toHaveAttribute('href', '/admin')
	await expectNoAxeViolations(page)

	await fillUserForm(page, { name: 'فهد الدوسري', email, mobile: '05512', password: 'weakpass', confirmPassword: 'different' })
	await page.getByRole('button', { name: 'إضافة المستخدم' }).click()
	await expect(page.getByText('رقم الجوال يجب أن يكون 10 أرقام ويبدأ بـ 05').first()).toBeVisible()
	await expect(page.getByText('كلمة المرور يجب ألا تقل عن 12 حرفاً').first()).toBeVisible()
	await expect(page.getByText('كلمتا المرور غير متطابقتين').first()).toBeVisible()
	await expect(page).toHaveURL('/admin/users/new')

	// Long enough, but a leaked password with a year after it: only the server knows the list.
	await fillUserForm(page, { mobile: '0551234567', password: 'Sunshine2026!', confirmPassword: 'Sunshine2026!' })
	await page.getByRole('button', { name: 'إضافة المستخدم' }).click()
	await expect(page.getByText('كلمة المرور هذه شائعة أو مسرّبة ويسهل تخمينها').first()).toBeVisible()
	await expect(page).toHaveURL('/admin/users/new')

	await fillUserForm(page, { mobile: '0551234567', roles: ['case_officer'], password: 'Officer-Pass-7' })
	await page.getByRole('button', { name: 'إضافة المستخدم' }).click()
	await expect(page).toHaveURL('/admin/users')
	await expect(page.getByRole('status')).toHaveText('تمت الإضافة بنجاح')

	const officer = await pageAs('visitor')
	await signIn(officer, { email, password: 'Officer-Pass-7' })
	await expect(officer).toHaveURL('/admin')
	// A case officer may not manage users.
	const forbidden = await officer.goto('/admin/users')
	expect(forbidden?.status()).toBe(403)
	await expect(officer.getByRole('heading', { level: 1 })).toHaveText('غير مسموح')
})

test('server-side validation holds without JavaScript: the error summary links to each field', async ({ pageAs }) => {
	const page = await pageAs('admin', { javaScriptEnabled: false })
	await page.goto('/admin/users/new')
	await page.getByLabel('البريد الإلكتروني').fill('admin@e2e.test')
	await page.getByRole('button', { name: 'إضافة المستخدم' }).click()
	await expect(page).toHaveTitle(/^خطأ: /)
	const summary = page.getByRole('alert')
	await expect(summary.getByRole('link', { name: 'الرجاء كتابة الاسم' })).toHaveAttribute('href', /^#/)
	await expect(summary.getByRole('link', { name: 'الرجاء كتابة رقم الجوال' })).toBeVisible()
	await expect(summary.getByRole('link', { name: 'الرجاء كتابة كلمة المرور' })).toBeVisible()
	await expect(page.getByLabel('البريد الإلكتروني')).toHaveValue('admin@e2e.test')

	// A duplicate e-mail is refused by the server.
	await fillUserForm(page, { name: 'مكرر', mobile: '0551234567', password: 'Dup-Pass-123' })
	await page.getByRole('button', { name: 'إضافة المستخدم' }).click()
	await expect(page.getByRole('alert')).toContainText('هذا البريد الإلكتروني مسجل لمستخدم آخر')
})

test('a stopped account is signed out and cannot sign in', async ({ page, pageAs }) => {
	const email = `editor-${unique()}@e2e.test`
	await addUser(page, { name: 'ريم الشهري', email, mobile: '0509876543', roles: ['content_editor'], password: 'Editor-Pass-3' })

	const editor = await pageAs('visitor')
	await signIn(editor, { email, password: 'Editor-Pass-3' })
	await expect(editor).toHaveURL('/admin')

	const row = await findUserRow(page, email)
	await row.getByRole('button', { name: /إيقاف/ }).click()
	await expect(page.getByRole('status')).toHaveText('تم تحديث البيانات بنجاح')
	await expect(page.getByRole('row', { name: email })).toContainText('موقوف')

	await editor.goto('/admin')
	await expect(editor).toHaveURL(/\/login/)
	await signIn(editor, { email, password: 'Editor-Pass-3' })
	await expect(editor.getByRole('alert')).toContainText('الرجاء التحقق من بيانات الدخول')
})

test('an admin cannot stop their own account, not even by posting the form by hand', async ({ page, pageAs }) => {
	// An admin of its own: were the refusal broken, only this account would be stopped.
	const email = `own-admin-${unique()}@e2e.test`
	await addUser(page, { name: 'نايف الحربي', email, mobile: '0531234567', roles: ['admin'], password: 'Own-Admin-Pass-5' })
	const own = await pageAs('visitor')
	await signIn(own, { email, password: 'Own-Admin-Pass-5' })
	await expect(own).toHaveURL('/admin')

	const row = await findUserRow(own, email)
	await expect(row).toContainText('حسابك')
	await expect(row.getByRole('button', { name: /إيقاف/ })).toHaveCount(0)
	const userId = (await row.getByRole('link', { name: /تعديل/ }).getAttribute('href'))!.split('/')[3]!
	await own.evaluate((id) => {
		const form = Object.assign(document.createElement('form'), { method: 'post' })
		for (const [name, value] of [['intent', 'toggle-active'], ['userId', id]]) form.append(Object.assign(document.createElement('input'), { type: 'hidden', name, value }))
		document.body.append(form)
		form.submit()
	}, userId)
	await expect(own.getByRole('status')).toHaveText('لا يمكنك إيقاف حسابك أنت.')
	await expect(own.getByRole('row', { name: email })).toContainText('فعّال')
	await own.goto('/admin/users')
	await expect(own).toHaveURL('/admin/users')
})

test('editing a user keeps the password unless a new one is typed; every users screen passes axe-core', async ({ page, pageAs }) => {
	const email = `edit-${unique()}@e2e.test`
	await page.goto('/admin/users/new')
	await fillUserForm(page, { name: 'سلمان العنزي', email, mobile: '0541112233', password: 'First-Pass-1' })
	await page.getByRole('button', { name: 'إضافة المستخدم' }).click()
	await expect(page.getByRole('status')).toHaveText('تمت الإضافة بنجاح')
	await expectNoAxeViolations(page)

	await (await findUserRow(page, email)).getByRole('link', { name: /تعديل/ }).click()
	await expect(page.getByLabel('الاسم')).toHaveValue('سلمان العنزي')
	await expect(page.getByLabel('رقم الجوال')).toHaveValue('0541112233')
	await expect(page.getByRole('navigation', { name: 'مسار التنقل' })).toContainText('المستخدمون')
	await expectNoAxeViolations(page)
	await page.getByLabel('الاسم').fill('سلمان بن فهد العنزي')
	await page.getByRole('button', { name: 'حفظ التعديلات' }).click()
	await expect(page.getByRole('status')).toHaveText('تم تحديث البيانات بنجاح')
	await expect(await findUserRow(page, email)).toContainText('سلمان بن فهد العنزي')

	const user = await pageAs('visitor')
	await signIn(user, { email, password: 'First-Pass-1' })
	await expect(user).toHaveURL('/admin')

	await page.goto('/admin/cases')
	await expect(page.getByRole('heading', { level: 1 })).toContainText('طلبات الأفراد')
	await expectNoAxeViolations(page)
	const missing = await page.goto('/admin/users/999999/edit')
	expect(missing?.status()).toBe(404)
})

test('each staff role is shown only the screens it may use, and refused the others', async ({ pageAs }) => {
	// What each role may open is used by the tests of those screens; here, what it may not.
	const roles = {
		case_officer: { shown: ['/admin/cases'], refused: ['/admin/users', '/admin/content/members'] },
		content_editor: { shown: ['/admin/foundation', '/admin/content/members', '/admin/inquiries'], refused: ['/admin/users', '/admin/cases'] },
	} as const
	for (const [role, { shown, refused }] of Object.entries(roles)) {
		const staff = await pageAs(role as keyof typeof roles)
		await staff.goto('/admin')
		const cards = staff.getByRole('main').getByRole('listitem')
		for (const path of shown) await expect(cards.filter({ has: staff.locator(`a[href="${path}"]`) }), `${role}: a card for ${path}`).toHaveCount(1)
		for (const path of refused) await expect(cards.filter({ has: staff.locator(`a[href="${path}"]`) }), `${role}: no card for ${path}`).toHaveCount(0)
		for (const path of refused) {
			expect((await staff.goto(path))?.status(), `${role} ${path}`).toBe(403)
			await expect(staff.getByRole('heading', { level: 1 })).toHaveText('غير مسموح')
		}
	}
})

test('a user may hold several roles: each role opens its own area, no more; at least one role is asked for', async ({ page, pageAs }) => {
	// A small foundation: the researcher also publishes the news.
	const email = `two-roles-${unique()}@e2e.test`
	await addUser(page, { name: 'هيفاء العتيبي', email, mobile: '0551234568', roles: ['case_officer', 'content_editor'], password: 'Two-Roles-Pass-8' })
	await expect(await findUserRow(page, email)).toContainText('الباحث الاجتماعي، محرر المحتوى')

	const both = await pageAs('visitor')
	await signIn(both, { email, password: 'Two-Roles-Pass-8' })
	await expect(both).toHaveURL('/admin')
	await expect(both.getByRole('banner')).toContainText('الباحث الاجتماعي، محرر المحتوى')
	expect((await both.goto('/admin/cases'))?.status()).toBe(200)
	expect((await both.goto('/admin/content/news'))?.status()).toBe(200)
	expect((await both.goto('/admin/users'))?.status()).toBe(403)

	// Unticking every role is refused on the form, with the roles as they were.
	const row = await findUserRow(page, email)
	await row.getByRole('link', { name: /تعديل/ }).click()
	await fillUserForm(page, { roles: [] })
	await page.getByRole('button', { name: 'حفظ التعديلات' }).click()
	await expect(page.getByRole('alert').getByRole('link', { name: 'الرجاء اختيار صلاحية واحدة على الأقل' })).toBeVisible()
	await expectNoAxeViolations(page)
	await fillUserForm(page, { roles: ['content_editor'] })
	await page.getByRole('button', { name: 'حفظ التعديلات' }).click()
	await expect(page.getByRole('status')).toHaveText('تم تحديث البيانات بنجاح')
	// A new set of roles ends the user's sessions: they sign in again with what they may now do.
	await both.goto('/admin/cases')
	await expect(both).toHaveURL(/\/login/)
})

test('an admin keeps the reasons a study may give for not recommending support, and the committee\'s for rejecting: one added is listed in its own list, one retired is marked so', async ({ page }) => {
	await page.goto('/admin/reasons')
	await expectNoAxeViolations(page)
	const study = page.getByRole('region', { name: 'أسباب عدم الدعم (توصية الباحث)' })
	const committee = page.getByRole('region', { name: 'أسباب رفض الطلب (قرار لجنة الصرف)' })
	const reason = `الأسرة انتقلت إلى مدينة أخرى ${unique()}`
	await study.getByLabel(/^سبب جديد/).fill(reason)
	await study.getByRole('button', { name: 'إضافة السبب' }).click()
	await expect(page.getByRole('status')).toHaveText('تمت الإضافة بنجاح')
	const row = study.getByRole('listitem').filter({ has: page.locator(`input[value="${reason}"]`) })
	await row.getByRole('button', { name: `إيقاف ${reason}` }).click()
	await expect(page.getByRole('status')).toHaveText('تم تحديث البيانات بنجاح')
	await expect(study.getByRole('listitem').filter({ has: page.locator(`input[value="${reason}"]`) })).toContainText('(موقوف)')
	// The committee's list is its own: the words an applicant reads when a case is rejected.
	await expect(committee.getByRole('listitem').filter({ has: page.locator(`input[value="${reason}"]`) })).toHaveCount(0)
	await expect(committee.locator('input[value="لا تنطبق على الطلب شروط البرنامج"]')).toBeVisible()
	await expectNoAxeViolations(page)
})
