// Libraries only a few requests use (an Excel export, a document's PDF, an e-mail, a two-step QR
// code), loaded the first time one needs them rather than at start: each adds 10–30 MB to the
// server's memory (docs/performance.md#memory), which most servers never need.
import type * as ExcelJS from 'exceljs'
import type * as Nodemailer from 'nodemailer'
import type * as PdfLib from 'pdf-lib'
import type * as QRCode from 'qrcode'

/** A CommonJS module's exports, whether `import()` gave them as its default or as its namespace. */
const exportsOf = <T>(module: T): T => (module as { default?: T }).default ?? module

let excel: Promise<typeof ExcelJS> | undefined
let pdf: Promise<typeof PdfLib> | undefined
let mail: Promise<typeof Nodemailer> | undefined
let qr: Promise<typeof QRCode> | undefined

export const loadExcel = () => (excel ??= import('exceljs').then(exportsOf))
export const loadPdfLib = () => (pdf ??= import('pdf-lib').then(exportsOf))
export const loadNodemailer = () => (mail ??= import('nodemailer').then(exportsOf))
export const loadQrCode = () => (qr ??= import('qrcode').then(exportsOf))
