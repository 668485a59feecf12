//! [`HeadList`]: a [`List`] that keeps its first element, decoded in the
//! pass that validated the array.
//!
//! A Chat chunk's `choices` nearly always holds one element, which every
//! reader reads. As a lazy [`List`] the array is read twice: validated when
//! the chunk decodes, then walked again to decode the element when it is
//! iterated. A `HeadList` decodes element 0 while validating the array and
//! keeps it; iterating yields it from the kept value, then decodes the rest
//! lazily, as a `List` does. The elements and errors iterated are those of
//! the `List` over the same text.

use core::fmt;
use core::iter::FusedIterator;
use core::marker::PhantomData;

use super::{DecodeError, Field, FieldElements, FieldValue, List, ListIter, Sealed};
use crate::json::{ObjectScanner, RawJson, Value};

/// A JSON array of `T` whose first element was decoded with the object
/// holding the array (when it is an object that decodes); the others are
/// decoded one by one as they are iterated, as in a [`List`].
///
/// The iteration API is the `List`'s: [`iter`](Self::iter),
/// [`first`](Self::first), [`len`](Self::len), [`is_empty`](Self::is_empty),
/// [`as_raw_json`](Self::as_raw_json), `for x in list`; and, to read every
/// element without copying the kept one out, [`head`](Self::head) then
/// [`rest`](Self::rest). Iteration yields
/// `Result`s, exactly the elements and errors of [`as_list`](Self::as_list)
/// iterated: an element that does not fit (the kept element included, which
/// is then not kept but decoded again when iterated) is an error for that
/// element only.
///
/// Unlike a `List`, a `HeadList` holds a `T`, so it is `Clone` but not
/// `Copy`. Equality compares the array's text.
pub struct HeadList<'a, T> {
    list: List<'a, T>,
    /// Element 0, decoded, and where it ends in the array's text; `None`
    /// when it is decoded when iterated (an empty array, an element that
    /// is not an object or does not decode, a list read from a validated
    /// value).
    head: Option<(T, usize)>,
}

impl<'a, T> HeadList<'a, T> {
    /// The array's JSON text, brackets included.
    #[inline]
    pub fn as_raw_json(&self) -> RawJson<'a> {
        self.list.as_raw_json()
    }

    /// Whether the array is empty. O(1) for compact text.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.head.is_none() && self.list.is_empty()
    }

    /// The number of elements (walks the array, decodes nothing).
    #[inline]
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// The same array as a lazy [`List`] (every element decoded when
    /// iterated).
    #[inline]
    pub fn as_list(&self) -> List<'a, T> {
        self.list
    }

    /// The first element as decoded with the array, if it was (see the
    /// type's docs): no decoding, no copy.
    #[inline]
    pub fn head(&self) -> Option<&T> {
        self.head.as_ref().map(|(head, _)| head)
    }

    /// The lazy iterator over the elements [`head`](Self::head) does not
    /// hold: those after the kept one, or all of them when none is kept.
    /// `head()` then `rest()` reads every element once, the kept one
    /// borrowed where iterating the list copies it out (it is large: a Chat
    /// choice is about 450 bytes). Pair it with `head()`, not with
    /// [`first`](Self::first): when no element is kept, `rest()` starts at
    /// element 0.
    ///
    /// ```
    /// use ssekit::chat::{ChatEvent, ChoiceDelta};
    ///
    /// let data = r#"{"choices":[{"index":0,"delta":{"content":"Hi"}},{"index":1,"delta":{}}]}"#;
    /// let ChatEvent::Chunk(chunk) = ChatEvent::parse(data)? else { panic!() };
    /// let mut indexes = Vec::new();
    /// let mut read = |choice: &ChoiceDelta<'_>| indexes.push(choice.index);
    /// if let Some(choice) = chunk.choices.head() {
    ///     read(choice);
    /// }
    /// for choice in chunk.choices.rest() {
    ///     read(&choice?);
    /// }
    /// assert_eq!(indexes, [0, 1]);
    /// # Ok::<(), ssekit::chat::DecodeError>(())
    /// ```
    #[inline]
    pub fn rest(&self) -> ListIter<'a, T> {
        let mut rest = ListIter {
            elements: self.list.array.iter(),
            base: self.list.base,
            _elements: PhantomData,
        };
        if let Some((_, end)) = &self.head {
            rest.elements.resume(*end);
        }
        rest
    }
}

impl<'a, T: Field<'a> + Clone> HeadList<'a, T> {
    /// An iterator over the decoded elements (the kept one copied when it
    /// is reached).
    #[inline]
    pub fn iter(&self) -> HeadListIter<'_, 'a, T> {
        HeadListIter {
            head: self.head.as_ref().map(|(head, _)| head),
            rest: self.rest(),
        }
    }

    /// The first element, decoded (a copy of the kept one, if kept).
    #[inline]
    pub fn first(&self) -> Option<Result<T, DecodeError>> {
        match &self.head {
            Some((head, _)) => Some(Ok(head.clone())),
            None => self.list.first(),
        }
    }
}

impl<'a, T: Clone> Clone for HeadList<'a, T> {
    fn clone(&self) -> Self {
        Self {
            list: self.list,
            head: self.head.clone(),
        }
    }
}

impl<T> PartialEq for HeadList<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.list == other.list
    }
}

impl<T> fmt::Debug for HeadList<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.list, f)
    }
}

impl<'a, T: Field<'a>> IntoIterator for HeadList<'a, T> {
    type Item = Result<T, DecodeError>;
    type IntoIter = HeadListIntoIter<'a, T>;
    #[inline]
    fn into_iter(self) -> HeadListIntoIter<'a, T> {
        let rest = self.rest();
        HeadListIntoIter {
            head: self.head.map(|(head, _)| head),
            rest,
        }
    }
}

impl<'l, 'a, T: Field<'a> + Clone> IntoIterator for &'l HeadList<'a, T> {
    type Item = Result<T, DecodeError>;
    type IntoIter = HeadListIter<'l, 'a, T>;
    #[inline]
    fn into_iter(self) -> HeadListIter<'l, 'a, T> {
        self.iter()
    }
}

/// Iterator over the decoded elements of a borrowed [`HeadList`]: the kept
/// element is copied out when it is reached, the others decoded as in a
/// [`List`].
pub struct HeadListIter<'l, 'a, T> {
    head: Option<&'l T>,
    rest: ListIter<'a, T>,
}

impl<T> fmt::Debug for HeadListIter<'_, '_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HeadListIter").finish_non_exhaustive()
    }
}

impl<T> Clone for HeadListIter<'_, '_, T> {
    fn clone(&self) -> Self {
        Self {
            head: self.head,
            rest: self.rest.clone(),
        }
    }
}

impl<'a, T: Field<'a> + Clone> Iterator for HeadListIter<'_, 'a, T> {
    type Item = Result<T, DecodeError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self.head.take() {
            Some(head) => Some(Ok(head.clone())),
            None => self.rest.next(),
        }
    }
}

impl<'a, T: Field<'a> + Clone> FusedIterator for HeadListIter<'_, 'a, T> {}

/// Iterator over the decoded elements of a [`HeadList`] taken by value.
pub struct HeadListIntoIter<'a, T> {
    head: Option<T>,
    rest: ListIter<'a, T>,
}

impl<T> fmt::Debug for HeadListIntoIter<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HeadListIntoIter").finish_non_exhaustive()
    }
}

impl<T: Clone> Clone for HeadListIntoIter<'_, T> {
    fn clone(&self) -> Self {
        Self {
            head: self.head.clone(),
            rest: self.rest.clone(),
        }
    }
}

impl<'a, T: Field<'a>> Iterator for HeadListIntoIter<'a, T> {
    type Item = Result<T, DecodeError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self.head.take() {
            Some(head) => Some(Ok(head)),
            None => self.rest.next(),
        }
    }
}

impl<'a, T: Field<'a>> FusedIterator for HeadListIntoIter<'a, T> {}

impl<T> Sealed for HeadList<'_, T> {}
impl<'a, T: Field<'a>> Field<'a> for HeadList<'a, T> {
    #[inline]
    fn from_value(value: Value<'a>, base: &'a str) -> Result<Self, DecodeError> {
        Ok(Self {
            list: List::from_value(value, base)?,
            head: None,
        })
    }

    const FROM_SCANNER: bool = T::NESTED;

    #[inline(always)]
    fn from_scanner(scanner: &mut ObjectScanner<'a>, base: &'a str, slot: &mut Self) -> bool {
        // Element 0 is decoded in its place in the slot (it is large:
        // moving it costs), the array filled in once it is known to be
        // valid.
        let (head, head_end) = slot.head.insert((T::fallback(), 0));
        match scanner.array_head(|s| T::from_nested_in(s, base, head).is_ok()) {
            Some((array, end)) => {
                *head_end = end;
                slot.list = List {
                    array,
                    base,
                    _elements: PhantomData,
                };
                true
            }
            None => {
                // Read the ordinary way, which sets the slot.
                slot.head = None;
                false
            }
        }
    }

    #[inline]
    fn field_value(&self) -> FieldValue<'a, '_> {
        FieldValue::Array(self)
    }

    fn fallback() -> Self {
        Self {
            list: List::fallback(),
            head: None,
        }
    }

    #[inline]
    fn is_fallback(&self) -> bool {
        self.list.is_fallback()
    }
}

impl<'a, T: Field<'a>> FieldElements<'a> for HeadList<'a, T> {
    fn for_each_element(&self, f: &mut dyn FnMut(Result<FieldValue<'a, '_>, DecodeError>)) {
        if let Some((head, _)) = &self.head {
            f(Ok(head.field_value()));
        }
        super::visit_elements(self.rest(), f);
    }
}
