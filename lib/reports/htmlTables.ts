/**
 * Makes every `table.sortable` of the report sortable (a button in each header; numbers sort as numbers;
 * `aria-sort` says the order) and filterable (a text box above it hides rows that do not contain the text).
 * Inline, no dependency: the report stays one offline file. Without scripts the tables read as before.
 */
export const TABLE_SCRIPT = `(function(){
  function key(cell){var t=(cell&&cell.getAttribute('data-sort'))||(cell?cell.textContent:'')||'';var n=parseFloat(t.replace(/[^0-9.+-]/g,''));return /^[\\s$+-]*[0-9]/.test(t)&&!isNaN(n)?n:t.toLowerCase();}
  document.querySelectorAll('table.sortable').forEach(function(table,ti){
    var body=table.tBodies[0];if(!body)return;
    var label=table.getAttribute('data-label')||'rows';
    var box=document.createElement('input');box.type='search';box.id='filter-'+ti;box.setAttribute('aria-label','Filter '+label);box.placeholder='filter '+label;box.className='filter';
    table.parentNode.insertBefore(box,table);
    box.addEventListener('input',function(){var q=box.value.toLowerCase();Array.prototype.forEach.call(body.rows,function(r){r.hidden=q!==''&&r.textContent.toLowerCase().indexOf(q)<0;});});
    Array.prototype.forEach.call(table.tHead.rows[0].cells,function(th,ci){
      var b=document.createElement('button');b.type='button';b.className='sort';b.textContent=th.textContent;th.textContent='';th.appendChild(b);th.setAttribute('aria-sort','none');
      b.addEventListener('click',function(){
        var asc=th.getAttribute('aria-sort')!=='ascending';
        Array.prototype.forEach.call(table.tHead.rows[0].cells,function(o){o.setAttribute('aria-sort','none');});
        th.setAttribute('aria-sort',asc?'ascending':'descending');
        var rows=Array.prototype.slice.call(body.rows);
        rows.sort(function(x,y){var a=key(x.cells[ci]),c=key(y.cells[ci]);return (a<c?-1:a>c?1:0)*(asc?1:-1);});
        rows.forEach(function(r){body.appendChild(r);});
      });
    });
  });
})();`;
