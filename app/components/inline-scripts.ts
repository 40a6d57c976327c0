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

/**
 * An album's photo viewer (app/gallery/photo-viewer.tsx): a thumbnail (a[data-photo]) opens a copy
 * of its photo's view ([data-photo-view]) in the modal #photo-viewer; its links (data-nav) and the
 * arrow keys (ArrowLeft is the next photo in RTL) or a swipe move, a click around the photo closes,
 * and the focus goes back to the thumbnail of the photo last seen. The photo and the two each side
 * are fetched at once (not lazily). Without showModal the links stay plain links to the :target views.
 */
export const photoViewerScript = `(()=>{const d=document.getElementById('photo-viewer');if(!d||!d.showModal)return;
const slot=d.querySelector('[data-slot]'),live=d.querySelector('[aria-live]'),views=[...document.querySelectorAll('[data-photo-view]')],thumbs=[...document.querySelectorAll('a[data-photo]')],n=views.length;let i=0,x=null;
const rtl=()=>getComputedStyle(d).direction==='rtl';
const show=(k,nav)=>{i=(k%n+n)%n;for(const o of [0,-2,-1,1,2]){const m=views[((i+o)%n+n)%n].querySelector('img');if(m)m.loading='eager'}
const v=views[i];slot.replaceChildren(v.firstElementChild.cloneNode(true));live.textContent=v.getAttribute('aria-label');
const f=slot.querySelector('[data-nav="'+nav+'"]')||slot.querySelector('[data-nav="close"]');if(f)f.focus()};
const go=k=>{const a=document.activeElement;show(k,a&&slot.contains(a)&&a.dataset.nav||'close')};
thumbs.forEach((a,k)=>a.addEventListener('click',e=>{if(e.button||e.metaKey||e.ctrlKey||e.shiftKey||e.altKey||k>=n)return;e.preventDefault();d.showModal();show(k,'close');document.documentElement.style.overflow='hidden'}));
d.addEventListener('close',()=>{document.documentElement.style.overflow='';if(thumbs[i])thumbs[i].focus()});
d.addEventListener('click',e=>{const a=e.target.closest('a[data-nav]');if(!a){if(e.target.hasAttribute('data-dismiss'))d.close();return}
const nav=a.dataset.nav;if(nav==='full')return;e.preventDefault();if(nav==='close')d.close();else show(i+(nav==='next'?1:-1),nav)});
d.addEventListener('keydown',e=>{const s={ArrowLeft:1,ArrowRight:-1}[e.key];if(!s||e.altKey||e.ctrlKey||e.metaKey)return;e.preventDefault();go(i+(rtl()?s:-s))});
d.addEventListener('touchstart',e=>{x=e.touches.length===1?e.touches[0].clientX:null},{passive:true});
d.addEventListener('touchend',e=>{if(x===null)return;const dx=e.changedTouches[0].clientX-x;x=null;if(Math.abs(dx)>50)go(i+((dx>0)===rtl()?1:-1))})})()`

/** Every inline script a page may carry; their hashes are in the Content-Security-Policy. */
export const inlineScripts = [sliderScript, announcementScript, photoViewerScript]
