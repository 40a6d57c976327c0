import { describe, expect, test } from 'vitest'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { findSection } from '#app/cases/journey.ts'
import {
	dateAfterToday,
	fileTooLarge,
	invalidAmount,
	invalidDate,
	invalidWholeNumber,
	maxCharacters,
	numberOutOfRange,
	pdfUploadHint,
	requiredChoice,
	requiredChoiceWith,
	requiredFile,
	requiredText,
	tooFewRows,
	tooFewToRemove,
	tooLong,
	tooManyRows,
} from '#app/text/messages.ts'
import type { CountedNoun } from '#app/text/arabic-count.ts'

// Every message template, rendered with the numbers where Arabic changes its noun (1, 2, 3–10,
// 11–99, 100+), checked word for word.

const groupOf = (key: string) => {
	const field = findSection(needyFamilies, key)!.fields[0]!
	if (field.kind !== 'group') throw new Error(`${key} is not a group`)
	return field
}
const referrers = groupOf('referrers')
const members = groupOf('family')
const counts = [1, 2, 3, 11, 100] as const

describe('the engine messages read as correct Arabic', () => {
	test('messages about one field, by its label', () => {
		expect(requiredText('الاسم الرباعي')).toBe('الرجاء كتابة الاسم الرباعي')
		expect(requiredChoice('صلة القرابة')).toBe('الرجاء اختيار صلة القرابة')
		expect(requiredFile('سجل الأسرة')).toBe('الرجاء إرفاق سجل الأسرة')
		expect(requiredChoiceWith('البنك الثاني (اختياري)', 'رقم الحساب الثاني (اختياري)')).toBe('الرجاء اختيار البنك الثاني لأنك كتبت رقم الحساب الثاني')
		expect(dateAfterToday('تاريخ الميلاد')).toBe('تاريخ الميلاد لا يمكن أن يكون بعد اليوم')
		expect(invalidDate).toBe('الرجاء كتابة تاريخ صحيح')
		expect(invalidWholeNumber).toBe('الرجاء كتابة رقم صحيح')
		expect(invalidAmount).toBe('الرجاء كتابة المبلغ بالأرقام، مثل 1500 أو 1500.50')
	})

	test('a sentence whose verb agrees with the label follows the label\'s gender', () => {
		expect(dateAfterToday('تاريخ الإصابة')).toBe('تاريخ الإصابة لا يمكن أن يكون بعد اليوم')
		expect(dateAfterToday('سنة التأسيس', 'f')).toBe('سنة التأسيس لا يمكن أن تكون بعد اليوم')
		expect(dateAfterToday('بداية المرض (اختياري)', 'f')).toBe('بداية المرض لا يمكن أن تكون بعد اليوم')
		// The other templates quote a label where its gender does not change a word.
		expect(requiredText('سنة التأسيس')).toBe('الرجاء كتابة سنة التأسيس')
		expect(requiredChoice('الجهة المشرفة')).toBe('الرجاء اختيار الجهة المشرفة')
		expect(requiredFile('شهادة التسجيل')).toBe('الرجاء إرفاق شهادة التسجيل')
		expect(tooLong('نبذة عن الجمعية', 500)).toBe('نبذة عن الجمعية: 500 حرف على الأكثر')
		expect(numberOutOfRange('مساحة الغرف', 1, 20)).toBe('مساحة الغرف: الرجاء كتابة رقم من 1 إلى 20')
	})

	test('a length limit agrees with its number', () => {
		expect(counts.map((n) => maxCharacters(n))).toEqual([
			'حرف واحد على الأكثر',
			'حرفان على الأكثر',
			'3 أحرف على الأكثر',
			'11 حرفاً على الأكثر',
			'100 حرف على الأكثر',
		])
		expect(counts.map((n) => tooLong('الاسم', n))).toEqual([
			'الاسم: حرف واحد على الأكثر',
			'الاسم: حرفان على الأكثر',
			'الاسم: 3 أحرف على الأكثر',
			'الاسم: 11 حرفاً على الأكثر',
			'الاسم: 100 حرف على الأكثر',
		])
		expect(tooLong('رسالة المستفيد (اختياري)', 2000)).toBe('رسالة المستفيد (اختياري): 2,000 حرف على الأكثر')
		expect(maxCharacters(10)).toBe('10 أحرف على الأكثر')
		expect(maxCharacters(50)).toBe('50 حرفاً على الأكثر')
		expect(maxCharacters(300)).toBe('300 حرف على الأكثر')
	})

	test('a number range names its bounds whatever the gender of the label', () => {
		expect(counts.map((n) => numberOutOfRange('العمر', 0, n))).toEqual([
			'العمر: الرجاء كتابة رقم من 0 إلى 1',
			'العمر: الرجاء كتابة رقم من 0 إلى 2',
			'العمر: الرجاء كتابة رقم من 0 إلى 3',
			'العمر: الرجاء كتابة رقم من 0 إلى 11',
			'العمر: الرجاء كتابة رقم من 0 إلى 100',
		])
		expect(numberOutOfRange('نسبة الإعاقة', 1, 1_000_000)).toBe('نسبة الإعاقة: الرجاء كتابة رقم من 1 إلى 1,000,000')
	})

	test('an optional count says it may be left empty, and a question is answered, not chosen (issue 24 §5.16)', () => {
		expect(numberOutOfRange('عدد مشاريع العام الماضي (اختياري)', 0, 1000, true)).toBe('عدد مشاريع العام الماضي: الرجاء كتابة رقم من 0 إلى 1,000، أو ترك الحقل فارغاً')
		expect(requiredChoice('هل يحتاج المنزل إلى صيانة؟')).toBe('الرجاء الإجابة عن السؤال: هل يحتاج المنزل إلى صيانة؟')
		expect(requiredChoice('صلة القرابة')).toBe('الرجاء اختيار صلة القرابة')
	})

	test('a group of fixed size asks for its rows counted', () => {
		expect(counts.map((n) => tooFewRows({ ...referrers, min: n, max: n }))).toEqual([
			'الرجاء إضافة معرّف واحد',
			'الرجاء إضافة معرّفَين',
			'الرجاء إضافة 3 معرّفين',
			'الرجاء إضافة 11 معرّفاً',
			'الرجاء إضافة 100 معرّف',
		])
		expect(tooFewRows(referrers)).toBe('الرجاء إضافة 3 معرّفين')
	})

	test('a list that grows row by row asks for its minimum and stops at its maximum', () => {
		expect(counts.map((n) => tooFewRows({ ...members, min: n, max: 200 }))).toEqual([
			'الرجاء إضافة فرد واحد على الأقل',
			'الرجاء إضافة فردين على الأقل',
			'الرجاء إضافة 3 أفراد على الأقل',
			'الرجاء إضافة 11 فرداً على الأقل',
			'الرجاء إضافة 100 فرد على الأقل',
		])
		expect(counts.map((n) => tooManyRows({ ...members, max: n }))).toEqual([
			'لا يمكن إضافة أكثر من فرد واحد',
			'لا يمكن إضافة أكثر من فردين',
			'لا يمكن إضافة أكثر من 3 أفراد',
			'لا يمكن إضافة أكثر من 11 فرداً',
			'لا يمكن إضافة أكثر من 100 فرد',
		])
		expect(tooFewRows(members)).toBe('الرجاء إضافة فرد واحد على الأقل')
		expect(tooManyRows(members)).toBe('لا يمكن إضافة أكثر من 20 فرداً')
	})

	test('a list of a feminine noun counts it in the dual and the plural as well', () => {
		const rooms: CountedNoun = { one: 'غرفة واحدة', two: 'غرفتين', few: 'غرف', many: 'غرفةً', other: 'غرفة' }
		expect(counts.map((n) => tooFewRows({ min: n, max: 200, counted: rooms }))).toEqual([
			'الرجاء إضافة غرفة واحدة على الأقل',
			'الرجاء إضافة غرفتين على الأقل',
			'الرجاء إضافة 3 غرف على الأقل',
			'الرجاء إضافة 11 غرفةً على الأقل',
			'الرجاء إضافة 100 غرفة على الأقل',
		])
		expect(counts.map((n) => tooManyRows({ min: 0, max: n, counted: rooms }))).toEqual([
			'لا يمكن إضافة أكثر من غرفة واحدة',
			'لا يمكن إضافة أكثر من غرفتين',
			'لا يمكن إضافة أكثر من 3 غرف',
			'لا يمكن إضافة أكثر من 11 غرفةً',
			'لا يمكن إضافة أكثر من 100 غرفة',
		])
	})

	test('staff removing a row the list cannot spare are told its minimum, counted', () => {
		expect(counts.map((n) => tooFewToRemove({ ...members, min: n }))).toEqual([
			'لا يمكن الحذف: يجب ألا تقل القائمة عن فرد واحد',
			'لا يمكن الحذف: يجب ألا تقل القائمة عن فردين',
			'لا يمكن الحذف: يجب ألا تقل القائمة عن 3 أفراد',
			'لا يمكن الحذف: يجب ألا تقل القائمة عن 11 فرداً',
			'لا يمكن الحذف: يجب ألا تقل القائمة عن 100 فرد',
		])
		expect(tooFewToRemove(members)).toBe('لا يمكن الحذف: يجب ألا تقل القائمة عن فرد واحد')
	})

	test('the upload limit is said in the units sizes are shown in', () => {
		expect(counts.map((n) => fileTooLarge(n * 1_000_000))).toEqual([
			'حجم الملف أكبر من 1 ميغابايت. اختر ملفاً أصغر.',
			'حجم الملف أكبر من 2 ميغابايت. اختر ملفاً أصغر.',
			'حجم الملف أكبر من 3 ميغابايت. اختر ملفاً أصغر.',
			'حجم الملف أكبر من 11 ميغابايت. اختر ملفاً أصغر.',
			'حجم الملف أكبر من 100 ميغابايت. اختر ملفاً أصغر.',
		])
		expect(fileTooLarge(2_500_000)).toMatch(/^حجم الملف أكبر من 2.5 ميغابايت\. اختر ملفاً أصغر\.$/)
		expect(pdfUploadHint(10_000_000)).toBe('ملف PDF، حتى 10 ميغابايت')
	})
})
