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
 * An album's photo viewer (app/content/gallery/photo-viewer.tsx): a thumbnail (a[data-photo]) opens a copy
 * of its photo's view ([data-photo-view]) in the modal #photo-viewer; its links (data-nav) and the
 * arrow keys (ArrowLeft is the next photo in RTL) or a swipe move, a click around the photo closes,
 * and the focus goes back to the thumbnail of the photo last seen. The photo and the two each side
 * are fetched at once (not lazily). Without showModal the links stay plain links to the :target views.
 * Zoom (the spec: step 1, enabled after 300 ms): the button ([data-nav="zoom"]), a double click or a
 * pinch spread on the photo doubles its width, keeping the point aimed at in place; the view gets
 * data-zoomed (its CSS makes [data-pan] scroll, and [data-pan] takes the focus by Tab while it can
 * scroll) and larger variants are asked for (sizes 200vw).
 * Zoomed, a mouse drag, the arrow keys or a finger move the photo rather than change it; a pinch
 * back, the button or a double click undo it, and another photo starts unzoomed. Nothing animates.
 * Keys are heard on the document while the viewer is open: a click on the photo leaves nothing focused.
 */
export const photoViewerScript = `(()=>{const d=document.getElementById('photo-viewer');if(!d||!d.showModal)return;
const slot=d.querySelector('[data-slot]'),live=d.querySelector('[aria-live]'),views=[...document.querySelectorAll('[data-photo-view]')],thumbs=[...document.querySelectorAll('a[data-photo]')],n=views.length;let i=0,x=null,z=false,t=0,b=null,w=null,m=null,p=null,moved=false,pinch=0;
const rtl=()=>getComputedStyle(d).direction==='rtl';
const zoom=(on,cx,cy)=>{if(!m||!b||b.getAttribute('aria-disabled')||on===z)return;const r=m.getBoundingClientRect();if(!r.width)return;
if(cx===undefined){const q=w.getBoundingClientRect();cx=q.left+q.width/2;cy=q.top+q.height/2}
const f=(v,a,l)=>Math.min(1,Math.max(0,(v-a)/l)),fx=f(cx,r.left,r.width),fy=f(cy,r.top,r.height);z=on;
slot.firstElementChild.toggleAttribute('data-zoomed',on);if(on)w.tabIndex=0;else w.removeAttribute('tabindex');m.style.width=on?2*r.width+'px':'';for(const s of w.querySelectorAll('source'))s.sizes=on?'200vw':'100vw';
if(on){const s=m.getBoundingClientRect();w.scrollBy(s.left+fx*s.width-cx,s.top+fy*s.height-cy)}};
const show=(k,nav)=>{i=(k%n+n)%n;for(const o of [0,-2,-1,1,2]){const m=views[((i+o)%n+n)%n].querySelector('img');if(m)m.loading='eager'}
const v=views[i];slot.replaceChildren(v.firstElementChild.cloneNode(true));live.textContent=v.getAttribute('aria-label');
z=false;p=null;clearTimeout(t);b=slot.querySelector('[data-nav="zoom"]');w=slot.querySelector('[data-pan]');m=w&&w.querySelector('img');
if(b&&m){b.hidden=false;t=setTimeout(()=>b.removeAttribute('aria-disabled'),300)}
const f=slot.querySelector('[data-nav="'+nav+'"]')||slot.querySelector('[data-nav="close"]');if(f)f.focus()};
const go=k=>{const a=document.activeElement;show(k,a&&slot.contains(a)&&a.dataset.nav||'close')};
thumbs.forEach((a,k)=>a.addEventListener('click',e=>{if(e.button||e.metaKey||e.ctrlKey||e.shiftKey||e.altKey||k>=n)return;e.preventDefault();d.showModal();show(k,'close');document.documentElement.style.overflow='hidden'}));
d.addEventListener('close',()=>{clearTimeout(t);document.documentElement.style.overflow='';if(thumbs[i])thumbs[i].focus()});
d.addEventListener('click',e=>{if(moved)return e.preventDefault();if(b&&b.contains(e.target))return zoom(!z);const a=e.target.closest('a[data-nav]');if(!a){if(e.target.hasAttribute('data-dismiss'))d.close();return}
const nav=a.dataset.nav;if(nav==='full')return;e.preventDefault();if(nav==='close')d.close();else show(i+(nav==='next'?1:-1),nav)});
d.addEventListener('dblclick',e=>{if(m&&e.target===m)zoom(!z,e.clientX,e.clientY)});
document.addEventListener('keydown',e=>{if(!d.open||e.altKey||e.ctrlKey||e.metaKey)return;
if(z){const a={ArrowLeft:[-1,0],ArrowRight:[1,0],ArrowUp:[0,-1],ArrowDown:[0,1]}[e.key];if(a){e.preventDefault();w.scrollBy(a[0]*w.clientWidth/5,a[1]*w.clientHeight/5)}return}
const s={ArrowLeft:1,ArrowRight:-1}[e.key];if(!s)return;e.preventDefault();go(i+(rtl()?s:-s))});
d.addEventListener('pointerdown',e=>{moved=false;if(!z||e.pointerType==='touch'||e.button||e.target!==m)return;p=[e.clientX,e.clientY];m.setPointerCapture(e.pointerId)});
d.addEventListener('pointermove',e=>{if(!p)return;const dx=e.clientX-p[0],dy=e.clientY-p[1];if(Math.abs(dx)+Math.abs(dy)>2)moved=true;w.scrollBy(-dx,-dy);p=[e.clientX,e.clientY]});
for(const e of ['pointerup','pointercancel'])d.addEventListener(e,()=>{p=null;setTimeout(()=>moved=false)});
d.addEventListener('dragstart',e=>{if(z)e.preventDefault()});
const span=e=>Math.hypot(e.touches[0].clientX-e.touches[1].clientX,e.touches[0].clientY-e.touches[1].clientY);
d.addEventListener('touchstart',e=>{x=e.touches.length===1&&!z?e.touches[0].clientX:null;pinch=e.touches.length===2&&w&&w.contains(e.target)?span(e):0},{passive:true});
d.addEventListener('touchmove',e=>{if(!pinch||e.touches.length!==2)return;const s=span(e)/pinch;
if(z?s<0.8:s>1.25){pinch=0;zoom(!z,(e.touches[0].clientX+e.touches[1].clientX)/2,(e.touches[0].clientY+e.touches[1].clientY)/2)}},{passive:true});
d.addEventListener('touchend',e=>{if(x===null)return;const dx=e.changedTouches[0].clientX-x;x=null;if(Math.abs(dx)>50)go(i+((dx>0)===rtl()?1:-1))})})()`

/** Every inline script a page may carry; their hashes are in the Content-Security-Policy. */
export const inlineScripts = [sliderScript, announcementScript, photoViewerScript]
