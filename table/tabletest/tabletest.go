// Package tabletest helps the tests that carry a table's options end to
// end (form, room, lobby, updates, both stores, restore): AllOptions sets
// every field of table.Options, so an option added there is checked
// everywhere without a test naming it.
package tabletest

import (
	"fmt"
	"reflect"
	"time"

	"github.com/bivouac-ssh/bivouac/table"
)

// AllOptions is a table.Options with every field (and every field of a
// struct-valued one, such as Pace) set to a value of its own, none the
// zero value.
func AllOptions() table.Options {
	var o table.Options
	n := 0
	fill(reflect.ValueOf(&o).Elem(), "", &n)
	return o
}

func fill(v reflect.Value, prefix string, n *int) {
	for i := range v.NumField() {
		f, name := v.Field(i), prefix+v.Type().Field(i).Name
		*n++
		switch {
		case f.Type() == reflect.TypeFor[time.Duration]():
			f.SetInt(int64(time.Duration(*n) * time.Minute))
		case f.Kind() == reflect.Bool:
			f.SetBool(true)
		case f.Kind() == reflect.String:
			f.SetString("opt-" + name)
		case f.CanInt():
			f.SetInt(int64(*n))
		case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.String:
			f.Set(reflect.ValueOf([]string{"SHA256:" + name + "1", "SHA256:" + name + "2"}))
		case f.Type() == reflect.TypeFor[time.Time]():
			f.Set(reflect.ValueOf(time.Date(2026, 11, *n, 9, 0, 0, 0, time.UTC)))
		case f.Kind() == reflect.Struct:
			fill(f, name+".", n)
		default:
			panic(fmt.Sprintf("tabletest: AllOptions sets no %s field (%s): teach it", f.Type(), name))
		}
	}
}

// EachOption calls f with a copy of o in which one field (or one field of
// a struct-valued one) differs from o's, once per field, and the field's
// name.
func EachOption(o table.Options, f func(name string, changed table.Options)) {
	var paths [][]int
	var names []string
	var walk func(t reflect.Type, path []int, prefix string)
	walk = func(t reflect.Type, path []int, prefix string) {
		for i := range t.NumField() {
			sf := t.Field(i)
			p := append(append([]int{}, path...), i)
			if sf.Type.Kind() == reflect.Struct && sf.Type != reflect.TypeFor[time.Time]() {
				walk(sf.Type, p, prefix+sf.Name+".")
				continue
			}
			paths, names = append(paths, p), append(names, prefix+sf.Name)
		}
	}
	walk(reflect.TypeFor[table.Options](), nil, "")
	for i, p := range paths {
		c := o
		v := reflect.ValueOf(&c).Elem().FieldByIndex(p)
		switch {
		case v.Kind() == reflect.Bool:
			v.SetBool(!v.Bool())
		case v.Kind() == reflect.String:
			v.SetString(v.String() + "-changed")
		case v.CanInt():
			v.SetInt(v.Int() + 1)
		case v.Type() == reflect.TypeFor[time.Time]():
			v.Set(reflect.ValueOf(v.Interface().(time.Time).Add(time.Second)))
		case v.Kind() == reflect.Slice:
			longer := reflect.AppendSlice(reflect.MakeSlice(v.Type(), 0, v.Len()+1), v)
			v.Set(reflect.Append(longer, reflect.Zero(v.Type().Elem())))
		default:
			panic(fmt.Sprintf("tabletest: EachOption changes no %s field (%s): teach it", v.Type(), names[i]))
		}
		f(names[i], c)
	}
}
