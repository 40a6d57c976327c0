// The few inline scripts public pages carry. Each is a constant, so the Content-Security-Policy allows
// it by its hash (app/entry.server.tsx): a page kept by the page cache needs no nonce. Whatever
// varies (the announcement's key) is read from the page, never written into the script.

/** The home page's slider: autoplay with a pause button (app/components/slider.tsx). */
export const sliderScript = `(()=>{const s=document.getElementById('slides');const b=document.getElementById('slides-pause');if(!s||!b||s.children.length<2)return;
let paused=matchMedia('(prefers-reduced-motion: reduce)').matches,hold=false;b.hidden=false;
const label=()=>{b.textContent=paused?'تشغيل العرض':'إيقاف العرض';b.setAttribute('aria-pressed',String(paused))};label();
b.addEventListener('click',()=>{paused=!paused;label()});
for(const e of ['mouseenter','focusin'])s.addEventListener(e,()=>hold=true);
for(const e of ['mouseleave','focusout'])s.addEventListener(e,()=>hold=false);
setInterval(()=>{if(paused||hold||document.hidden)return;const w=s.clientWidth;const i=Math.round(Math.abs(s.scrollLeft)/w);const next=(i+1)%s.children.length;
s.scrollTo({left:(getComputedStyle(s).direction==='rtl'?-1:1)*next*w,behavior:'smooth'})},7000)})()`

/**
 * The home page's announcement (app/components/announcement.tsx): shown as a modal dialog, and not
 * again in this visit once closed. Its key is the dialog's data-key.
 */
export const announcementScript = `(()=>{const d=document.getElementById('announcement');if(!d)return;const k='ataa-announcement-'+d.dataset.key;try{if(sessionStorage.getItem(k)){d.close();return}}catch(e){}d.close();d.showModal();d.addEventListener('close',()=>{try{sessionStorage.setItem(k,'1')}catch(e){}})})()`

/** Every inline script a page may carry; their hashes are in the Content-Security-Policy. */
export const inlineScripts = [sliderScript, announcementScript]
